package io.quarkiverse.lock.deployment.postgresql;

import java.time.Duration;

import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStoreSettings;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresTable;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.tck.LockStoreTck;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * The whole contract suite on the PostgreSQL store: a private PostgreSQL 15 server, reached through the reactive
 * PostgreSQL client. Every instance is a store object of its own, so only the database connects them.
 */
class PostgresLockStoreTckTest extends LockStoreTck {

    private static final PostgresTable TABLE = PostgresTable.parse("contract");

    private final Pool pool = PgBuilder.pool()
            .connectingTo(PgConnectOptions.fromUri(PostgresServer.shared().url()).setUser(PostgresServer.SUPERUSER)
                    .setPassword(PostgresServer.SUPERUSER_PASSWORD))
            .with(new PoolOptions().setMaxSize(16))
            .using(io.vertx.mutiny.core.Vertx.newInstance(vertx()))
            .build();

    PostgresLockStoreTckTest() {
        pool.query(PostgresLockStore.createTableStatement(TABLE)).execute().await().atMost(Duration.ofSeconds(30));
    }

    @Override
    public LockStore newStore() {
        return newStoreWithKeyPrefix(settings().keyPrefix());
    }

    @Override
    public LockStore newStoreWithKeyPrefix(String keyPrefix) {
        return new PostgresLockStore(vertx(), pool, new PostgresLockStoreSettings(TABLE, keyPrefix, false, true,
                Duration.ofHours(1), settings().operationTimeout()));
    }

    @Override
    public void deleteLock(String key) {
        pool.preparedQuery("DELETE FROM contract WHERE lock_key = $1")
                .execute(Tuple.tuple().addBuffer(Buffer.buffer(settings().keyPrefix() + key))).await()
                .atMost(settings().operationTimeout());
    }

    @Override
    protected void closeBackend() {
        pool.close().await().atMost(Duration.ofSeconds(10));
    }
}
