package io.quarkiverse.lock.deployment.postgresql;

import java.time.Duration;
import java.util.UUID;

import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.RegistryFixture;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStoreSettings;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresTable;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.WireProtocol;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * JUnit extension for the PostgreSQL store's fault tests: a Vert.x instance for each test, a {@link FaultProxy} to the
 * shared server, and stores (each on a pool of its own, with its own table per test) straight to the server or
 * through the proxy, closed after the test.
 */
final class PostgresFaults extends RegistryFixture {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    PostgresFaults() {
        super(null, null);
    }

    /** @return a proxy to the shared server, with no rules yet, closed after the test */
    FaultProxy proxy() {
        return closeAfterEach(FaultProxy.start("127.0.0.1", PostgresServer.shared().port(), WireProtocol.POSTGRESQL));
    }

    /** @return a fresh table name for one test */
    static String table() {
        return "faults_" + UUID.randomUUID().toString().replace("-", "");
    }

    /**
     * @param port the port of the server, or of a proxy to it
     * @param table the lock table
     * @param createSchema whether the store creates the table
     * @param operationTimeout how long one operation may take
     * @return a store on a pool of its own, with keys under "lock:"
     */
    PostgresLockStore store(int port, String table, boolean createSchema, Duration operationTimeout) {
        return store(pool(port), table, createSchema, operationTimeout);
    }

    /**
     * @param pool the store's pool, closed after the test
     * @param table the lock table
     * @param createSchema whether the store creates the table
     * @param operationTimeout how long one operation may take
     * @return a store on that pool, with keys under "lock:"
     */
    PostgresLockStore store(Pool pool, String table, boolean createSchema, Duration operationTimeout) {
        return store(pool, table, createSchema, operationTimeout, PostgresLockStoreSettings.defaultMaxConnections());
    }

    /**
     * @param pool the store's pool, closed after the test
     * @param table the lock table
     * @param createSchema whether the store creates the table
     * @param operationTimeout how long one operation may take
     * @param maxConnections how many connections the store's statements may hold at once
     * @return a store on that pool, with keys under "lock:"
     */
    PostgresLockStore store(Pool pool, String table, boolean createSchema, Duration operationTimeout,
            int maxConnections) {
        PostgresLockStore store = new PostgresLockStore(vertx(), pool,
                new PostgresLockStoreSettings(PostgresTable.parse(table), "lock:", createSchema, true,
                        Duration.ofHours(1), operationTimeout, maxConnections));
        closeAfterEach(store::close);
        return store;
    }

    /**
     * @param port the port of the server, or of a proxy to it
     * @return a pool of four connections as the superuser, closed after the test
     */
    Pool pool(int port) {
        Pool pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri("postgresql://127.0.0.1:" + port + "/" + PostgresServer.DATABASE)
                        .setUser(PostgresServer.SUPERUSER).setPassword(PostgresServer.SUPERUSER_PASSWORD))
                .with(new PoolOptions().setMaxSize(4))
                .using(io.vertx.mutiny.core.Vertx.newInstance(vertx())).build();
        closeAfterEach(() -> pool.close().await().atMost(TIMEOUT));
        return pool;
    }

    /** @return a started registry on {@code store} (lease 30 s, wait 10 s), closed after the test */
    DefaultLockRegistry registry(PostgresLockStore store, Duration operationTimeout) {
        return start(store, settings(Duration.ofSeconds(30), Duration.ofSeconds(10), operationTimeout),
                new LocalLockStates());
    }
}
