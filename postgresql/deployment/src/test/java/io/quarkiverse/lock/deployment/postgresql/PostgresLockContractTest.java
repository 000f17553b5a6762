package io.quarkiverse.lock.deployment.postgresql;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.contract.LockContract;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.local.LocalLockStates;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStoreSettings;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresTable;
import io.quarkiverse.lock.runtime.wait.WaitStrategy;
import io.quarkiverse.lock.test.PostgresServer;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * The whole contract on the PostgreSQL store: a private PostgreSQL server, reached through the real Quarkus reactive
 * PostgreSQL client. Another instance is a second registry with its own local state and its own store object, so
 * only the database connects the two.
 */
class PostgresLockContractTest extends LockContract {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String TABLE = "contract";

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(PostgresServer.shared(), TABLE);

    @Inject
    LockRegistry registry;

    @Inject
    LockSettings settings;

    @Inject
    Vertx vertx;

    @Inject
    Pool pool;

    @Override
    protected LockRegistry registry() {
        return registry;
    }

    @Override
    protected DefaultLockRegistry startInstance(WaitStrategy waitStrategy) {
        PostgresLockStore store = new PostgresLockStore(vertx, pool, new PostgresLockStoreSettings(
                PostgresTable.parse(TABLE), settings.keyPrefix(), false, true, Duration.ofHours(1)),
                settings.operationTimeout());
        DefaultLockRegistry instance = new DefaultLockRegistry(store, settings, waitStrategy, new LocalLockStates(),
                vertx);
        instance.start();
        return instance;
    }

    @Override
    protected void deleteLock(String key) {
        pool.preparedQuery("DELETE FROM contract WHERE lock_key = $1")
                .execute(Tuple.tuple().addBuffer(Buffer.buffer(settings.keyPrefix() + key))).await().atMost(TIMEOUT);
    }

    @Override
    protected Vertx vertx() {
        return vertx;
    }

    @Override
    protected long storeSize() {
        return pool.query("SELECT count(*) FROM contract").execute().await().atMost(TIMEOUT).iterator().next()
                .getLong(0);
    }
}
