package io.quarkiverse.lock.runtime.store.postgresql;

import java.util.Optional;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkus.reactive.datasource.ReactiveDataSource;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * Produces the PostgreSQL {@link LockStore} on the pool of the reactive datasource named by
 * {@code quarkus.lock.postgresql.datasource}; a bean only when the build chose the PostgreSQL store.
 */
@Singleton
public class PostgresLockStoreProducer {

    private static final Logger LOG = Logger.getLogger(PostgresLockStoreProducer.class);
    /** {@code quarkus.datasource.reactive.max-size} when it is not set. */
    private static final int QUARKUS_DEFAULT_MAX_SIZE = 20;

    @Inject
    @Any
    Instance<Pool> pools;

    /**
     * @param settings the validated settings
     * @param config the store's runtime configuration
     * @param datasource the store's datasource configuration
     * @param vertx the application's Vert.x
     * @return the store
     * @throws ConfigurationException if the table name, the retention or the number of connections is invalid, or the
     *         datasource has no pool
     */
    @Produces
    @Singleton
    LockStore postgresLockStore(LockSettings settings, PostgresLockRuntimeConfig config,
            PostgresLockBuildTimeConfig datasource, Vertx vertx) {
        Instance<Pool> pool = datasource.datasource()
                .map(name -> pools.select(new ReactiveDataSource.ReactiveDataSourceLiteral(name)))
                .orElseGet(() -> pools.select(Default.Literal.INSTANCE));
        if (!pool.isResolvable()) {
            String name = datasource.datasource().orElse("<default>");
            throw new ConfigurationException("quarkus.lock.postgresql.datasource names the datasource '" + name
                    + "', but it has no reactive PostgreSQL pool (set quarkus.datasource"
                    + datasource.datasource().map(n -> ".\"" + n + "\"").orElse("")
                    + ".db-kind=postgresql and its reactive.url)");
        }
        PostgresTable table;
        try {
            table = PostgresTable.parse(config.table());
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(e.getMessage());
        }
        String maxSizeProperty = "quarkus.datasource"
                + datasource.datasource().map(name -> ".\"" + name + "\"").orElse("") + ".reactive.max-size";
        Optional<Integer> maxSize = ConfigProvider.getConfig().getOptionalValue(maxSizeProperty, Integer.class);
        boolean listens = config.releaseNotifications() && poolLeavesRoomToListen(maxSizeProperty, maxSize);
        return new PostgresLockStore(vertx, pool.get(), new PostgresLockStoreSettings(table, settings.keyPrefix(),
                config.createSchema(), listens,
                LockSettings.positive("quarkus.lock.postgresql.free-row-retention", config.freeRowRetention()),
                settings.operationTimeout(),
                maxConnections(config, maxSizeProperty, maxSize.orElse(QUARKUS_DEFAULT_MAX_SIZE), listens)));
    }

    /**
     * At most the pool's connections less the listener's and one: statements that get no answer keep their
     * connections until another connection ends their sessions, so were they to hold every connection the listener
     * leaves, no connection would be left to end them, and the store would wait for ever.
     */
    private static int maxConnections(PostgresLockRuntimeConfig config, String property, int maxSize,
            boolean listens) {
        int connections = config.maxConnections().orElse(PostgresLockStoreSettings.defaultMaxConnections());
        if (connections < 1) {
            throw new ConfigurationException("quarkus.lock.postgresql.max-connections must be at least 1, not "
                    + connections);
        }
        int room = Math.max(1, maxSize - (listens ? 1 : 0) - 1);
        if (connections <= room) {
            return connections;
        }
        LOG.logf(config.maxConnections().isPresent() ? Logger.Level.WARN : Logger.Level.DEBUG,
                "quarkus.lock.postgresql.max-connections is %d, but %s is %d: the PostgreSQL lock store's statements "
                        + "hold at most %d connections, so that one is left to end the sessions of statements that "
                        + "get no answer%s",
                connections, property, maxSize, room, listens ? " besides the one that listens for hand-overs" : "");
        return room;
    }

    /**
     * The hand-over announcements keep one connection of the pool for {@code LISTEN}: a pool of one connection would
     * then have none left for the locks, so announcements are off there, and waiters poll.
     */
    private static boolean poolLeavesRoomToListen(String property, Optional<Integer> maxSize) {
        if (maxSize.isEmpty() || maxSize.get() > 1) {
            return true;
        }
        LOG.warnf("%s is %d: the PostgreSQL lock store keeps one connection of the pool to listen for hand-overs, "
                + "which would leave none for the locks, so it does not listen (waiters of other instances poll). "
                + "Raise it to 2 or more, or set quarkus.lock.postgresql.release-notifications=false", property,
                maxSize.get());
        return false;
    }
}
