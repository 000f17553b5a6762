package io.quarkiverse.lock.runtime.store.jdbc;

import java.util.Optional;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkus.agroal.runtime.AgroalDataSourceUtil;
import io.quarkus.datasource.common.runtime.DataSourceUtil;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.Vertx;

/**
 * Produces the JDBC {@link LockStore} on the Agroal datasource named by {@code quarkus.lock.jdbc.datasource}; a bean
 * only when the build chose the JDBC store. It finds the database at once, so that one the store does not support
 * fails startup.
 */
@Singleton
public class JdbcLockStoreProducer {

    /**
     * @param settings the validated settings
     * @param config the store's runtime configuration
     * @param datasource the store's datasource configuration
     * @param vertx the application's Vert.x
     * @return the store
     * @throws ConfigurationException if the table name, the threads or an interval is invalid, the datasource is not
     *         there, or its database is none the store supports
     */
    @Produces
    @Singleton
    LockStore jdbcLockStore(LockSettings settings, JdbcLockRuntimeConfig config, JdbcLockBuildTimeConfig datasource,
            Vertx vertx) {
        String name = datasource.datasource().orElse(DataSourceUtil.DEFAULT_DATASOURCE_NAME);
        Optional<AgroalDataSource> dataSource = AgroalDataSourceUtil.dataSourceIfActive(name);
        if (dataSource.isEmpty()) {
            throw new ConfigurationException("The JDBC lock store uses the datasource '" + name + "' (set by "
                    + "quarkus.lock.jdbc.datasource), but no active JDBC datasource has that name: configure it "
                    + "(quarkus.datasource" + datasource.datasource().map(n -> ".\"" + n + "\"").orElse("")
                    + ".db-kind and its jdbc.url), or choose another with quarkus.lock.jdbc.datasource");
        }
        if (config.threads() < 1) {
            throw new ConfigurationException("quarkus.lock.jdbc.threads must be positive, but is " + config.threads());
        }
        JdbcTable table;
        try {
            table = JdbcTable.parse(config.table());
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(e.getMessage());
        }
        JdbcLockStore store = new JdbcLockStore(vertx, dataSource.get(), new JdbcLockStoreSettings(table,
                settings.keyPrefix(), config.createSchema(), config.threads(),
                LockSettings.positive("quarkus.lock.jdbc.hand-over-poll-interval", config.handOverPollInterval()),
                LockSettings.positive("quarkus.lock.jdbc.free-row-retention", config.freeRowRetention()),
                settings.operationTimeout()));
        try {
            store.detect();
        } catch (IllegalStateException unsupported) {
            store.close();
            throw new ConfigurationException(unsupported.getMessage() + " (datasource '" + name + "')");
        }
        return store;
    }
}
