package io.quarkiverse.lock.runtime.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.vertx.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * What lets a waiter take an announced hand-over as its grant without asking the store again, and poll only as a
 * fallback: a refusal says which tokens the key had been issued, and the release watch says while every hand-over is
 * announced.
 */
class PostgresHandOverTest {

    private static final Duration AWAIT = Duration.ofSeconds(10);
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final String KEY = "hand-over";

    private Vertx vertx;
    private Pool pool;
    private PostgresLockStore store;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(PostgresServer.shared().url()).setUser(PostgresServer.SUPERUSER)
                        .setPassword(PostgresServer.SUPERUSER_PASSWORD))
                .with(new PoolOptions().setMaxSize(3))
                .using(io.vertx.mutiny.core.Vertx.newInstance(vertx)).build();
        PostgresTable table = PostgresTable.parse("hand_" + UUID.randomUUID().toString().replace("-", ""));
        store = new PostgresLockStore(vertx, pool,
                new PostgresLockStoreSettings(table, "lock:", true, true, Duration.ofHours(1), TIMEOUT));
        store.start();
    }

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        if (pool != null) {
            pool.close().await().atMost(AWAIT);
        }
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    @Test
    void aRefusedWaiterLearnsTheLastTokenIssuedForTheKey() {
        AcquireResult held = store.tryAcquire(KEY, "holder", 10_000, false).await().atMost(AWAIT);
        assertThat(held.acquired()).as("the key is free").isTrue();

        AcquireResult refused = store.tryAcquire(KEY, "waiter", 10_000, true).await().atMost(AWAIT);
        assertThat(refused.acquired()).as("the holder holds it").isFalse();
        assertThat(refused.issuedTokensUpTo()).as("the tokens issued for the key when it was refused")
                .isEqualTo(held.token());

        assertThat(store.release(KEY, "holder").await().atMost(AWAIT)).as("the holder releases").isTrue();
        AcquireResult handed = store.tryAcquire(KEY, "waiter", 10_000, true).await().atMost(AWAIT);
        assertThat(handed.acquired()).as("the release handed the lock to the waiter").isTrue();
        assertThat(handed.token()).as("the hand-over's token, above what the refusal saw issued")
                .isGreaterThan(refused.issuedTokensUpTo());
    }

    @Test
    void theWatchSaysEveryHandOverIsAnnouncedOnlyWhileItListens() throws Exception {
        List<Boolean> announced = new CopyOnWriteArrayList<>();
        AutoCloseable watch = store.watchReleases(new ReleaseListener() {
            @Override
            public void released(String key) {
            }

            @Override
            public void handedOver(String key, String owner, long token) {
            }

            @Override
            public void mayHaveMissed() {
            }

            @Override
            public void announcesEveryRelease(boolean every) {
                announced.add(every);
            }
        });
        long deadline = System.nanoTime() + AWAIT.toNanos();
        while (announced.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(announced).as("once it listens").containsExactly(true);

        watch.close();
        assertThat(announced).as("once it stopped listening").containsExactly(true, false);
    }
}
