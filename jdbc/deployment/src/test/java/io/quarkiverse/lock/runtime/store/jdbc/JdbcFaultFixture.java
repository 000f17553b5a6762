package io.quarkiverse.lock.runtime.store.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.deployment.jdbc.ServerDatabase;
import io.quarkiverse.lock.spi.LockRegistrySettings;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.quarkiverse.lock.tck.faults.ClockSectionLog;
import io.quarkiverse.lock.tck.faults.FaultFixture;
import io.quarkiverse.lock.tck.faults.FaultTimeline;
import io.quarkiverse.lock.tck.faults.ProbeCheck;
import io.quarkiverse.lock.tck.faults.SectionLog;
import io.quarkiverse.lock.testsupport.LocalServer;
import io.quarkiverse.lock.testsupport.proxy.FaultMix;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.ProxiedFaults;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * The JDBC store on a private database server, PostgreSQL through the PostgreSQL JDBC driver or MariaDB through
 * MariaDB Connector/J: each instance is a registry over its own {@link JdbcLockStore}, on its own Vert.x and its own
 * Agroal pool, connected through its own {@link FaultProxy}, which reads the database's protocol. The section log reads
 * the server's clock, the clock of the store's leases, and asks the lock table whether a key is held under a
 * section's token, both through a pool straight to the server, on threads of the fixture's own.
 */
final class JdbcFaultFixture implements FaultFixture {

    private static final JdbcTable TABLE = JdbcTable.parse("quarkus_lock");
    /** Each instance's pool and threads: one per worker, as the store's default of 8 threads would allow. */
    private static final int POOL_SIZE = 10;
    private static final int THREADS = 8;

    private final ServerDatabase database;
    private final JdbcDialect dialect;
    private final String now;
    private final String holds;
    private final String left;
    private final ProxiedFaults faults;
    private final List<Vertx> vertxes = new ArrayList<>();
    private final List<AgroalDataSource> pools = new ArrayList<>();
    private final List<StandaloneLockRegistry> registries = new ArrayList<>();
    private final List<JdbcLockStore> stores = new ArrayList<>();
    private final ExecutorService probes = Executors.newFixedThreadPool(4);
    private LocalServer server;
    private String keyPrefix;
    private AgroalDataSource direct;
    private ClockSectionLog log;

    private JdbcFaultFixture(ServerDatabase database, JdbcDialect dialect) {
        this.database = database;
        this.dialect = dialect;
        String held = "owner IS NOT NULL AND held_until > " + dialect.nowMicros();
        now = "SELECT " + dialect.nowMicros();
        holds = "SELECT count(*) FROM " + TABLE.sql() + " WHERE lock_id = ? AND token = ? AND " + held;
        left = "SELECT lock_key, owner, token, held_until FROM " + TABLE.sql() + " WHERE " + held;
        // lost answers may begin anywhere but in a connection's start, whose loss no client can tell from a slow one
        faults = new ProxiedFaults(new FaultMix(FaultMix.Drops.ANSWER,
                exchange -> !"startup".equals(exchange.request()), database.notifies()));
    }

    /**
     * @return the fixture on a private PostgreSQL server, through the PostgreSQL JDBC driver; its notifications are
     *         delayed too
     */
    static JdbcFaultFixture onPostgres() {
        return new JdbcFaultFixture(ServerDatabase.POSTGRESQL, JdbcDialect.POSTGRESQL);
    }

    /**
     * @return the fixture on a private MariaDB server, through MariaDB Connector/J
     */
    static JdbcFaultFixture onMariaDb() {
        return new JdbcFaultFixture(ServerDatabase.MARIADB, JdbcDialect.MARIADB);
    }

    @Override
    public String name() {
        return "jdbc-" + database.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public List<StandaloneLockRegistry> start(int instances, LockRegistrySettings settings) {
        keyPrefix = settings.keyPrefix();
        server = database.start();
        direct = pool(server.port(), 8);
        log = new ClockSectionLog(() -> blocking(() -> count(now)), (key, token) -> blocking(
                () -> count(holds, JdbcKey.of(keyPrefix + key).id(), token) > 0));
        for (int i = 0; i < instances; i++) {
            FaultProxy proxy = FaultProxy.start("127.0.0.1", server.port(), database.protocol());
            faults.add(proxy);
            Vertx vertx = Vertx.vertx();
            vertxes.add(vertx);
            // the first instance creates the tables, before the others start
            JdbcLockStore store = new JdbcLockStore(vertx, pool(proxy.port(), POOL_SIZE), new JdbcLockStoreSettings(
                    TABLE, keyPrefix, i == 0, THREADS, Duration.ofMillis(100), Duration.ofHours(1),
                    settings.operationTimeout()));
            stores.add(store);
            registries.add(StandaloneLockRegistry.over(store, vertx).settings(settings).start());
            if (i == 0) {
                ProbeCheck.assertTheProbeReadsTheStore(registries.get(0), log, "JDBC on " + dialect);
            }
        }
        return List.copyOf(registries);
    }

    private AgroalDataSource pool(int port, int size) {
        AgroalDataSource pool = database.pool(port, size);
        pools.add(pool);
        return pool;
    }

    /** Blocking work of the log, on the fixture's own threads: never on an event loop of an instance. */
    private <T> Uni<T> blocking(Query<T> query) {
        return Uni.createFrom().item(() -> {
            try {
                return query.run();
            } catch (SQLException e) {
                throw new IllegalStateException("The section log could not read the lock table", e);
            }
        }).runSubscriptionOn(probes);
    }

    /** A query of the log. */
    @FunctionalInterface
    private interface Query<T> {

        T run() throws SQLException;
    }

    private long count(String sql, Object... arguments) throws SQLException {
        try (Connection connection = direct.getConnection(); PreparedStatement query = connection.prepareStatement(sql)) {
            JdbcTransaction.bind(query, arguments);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    @Override
    public SectionLog log() {
        return log;
    }

    @Override
    public void startFaults(long seed, FaultTimeline timeline) {
        faults.start(seed, timeline::add);
    }

    @Override
    public void stopFaults() {
        faults.stop();
    }

    @Override
    public Map<String, Long> faultCounts() {
        return faults.counts();
    }

    /**
     * Waits until no instance has an operation running or waiting for its key's earlier ones: an acquisition may end
     * late, and its take-back after it.
     */
    @Override
    public boolean awaitQuiet(Duration atMost) throws InterruptedException {
        return ProxiedFaults.awaitQuiet(atMost, () -> stores.stream().anyMatch(store -> store.busyKeys() > 0));
    }

    /**
     * Lists every row of the lock table that is held (an owner, and a lease running on the server's clock).
     */
    @Override
    public List<String> leftInStore(List<String> keys) {
        List<String> held = new ArrayList<>();
        try (Connection connection = direct.getConnection();
                PreparedStatement query = connection.prepareStatement(left);
                ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                held.add(new String(rows.getBytes(1), StandardCharsets.UTF_8) + " (owner " + rows.getString(2) + ", token "
                        + rows.getLong(3)
                        + ", held until " + rows.getLong(4) + ")");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not read the lock table", e);
        }
        return held;
    }

    @Override
    public void close() {
        try {
            stopFaults();
            for (StandaloneLockRegistry registry : registries) {
                registry.close();
            }
            for (AgroalDataSource pool : pools) {
                pool.close();
            }
            faults.close();
            for (Vertx vertx : vertxes) {
                vertx.close().toCompletionStage().toCompletableFuture().join();
            }
            probes.shutdownNow();
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }
}
