package io.quarkiverse.lock.deployment.jdbc;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStore;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStoreSettings;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcTable;
import io.quarkiverse.lock.spi.LockRegistrySettings;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.vertx.core.Vertx;

/**
 * Instances of an application on the JDBC store, each a registry over a store of its own on a pool of its own, for
 * the tests that put a fault between one of them and the database: whatever is opened here is closed, latest first,
 * by {@link #close()}.
 */
final class JdbcInstances implements AutoCloseable {

    /** The store's threads in each instance. */
    static final int THREADS = 4;

    private final Vertx vertx = Vertx.vertx();
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    /**
     * @param pool the instance's pool, closed with the instance
     * @param table the lock table
     * @param operationTimeout the registry's and the store's operation timeout
     * @return the instance's registry, started
     */
    StandaloneLockRegistry registry(AgroalDataSource pool, String table, Duration operationTimeout) {
        opened.push(pool);
        JdbcLockStore store = new JdbcLockStore(vertx, pool, new JdbcLockStoreSettings(JdbcTable.parse(table), "", true,
                THREADS, Duration.ofMillis(100), Duration.ofHours(1), operationTimeout));
        StandaloneLockRegistry registry = StandaloneLockRegistry.over(store, vertx)
                .settings(LockRegistrySettings.defaults().withOperationTimeout(operationTimeout)).start();
        opened.push(registry);
        return registry;
    }

    /**
     * @return the instance's registry on a pool of 8 connections to {@code port} (a server or a proxy in front of it)
     */
    StandaloneLockRegistry registry(ServerDatabase database, int port, String table, Duration operationTimeout) {
        return registry(database.pool(port, 8), table, operationTimeout);
    }

    /** @return {@code closeable}, closed with the instances, before what was opened earlier */
    <T extends AutoCloseable> T closing(T closeable) {
        opened.push(closeable);
        return closeable;
    }

    Vertx vertx() {
        return vertx;
    }

    @Override
    public void close() throws Exception {
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }
}
