package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStoreSettings;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresTable;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * The {@code LISTEN} connection comes back by itself: after the server ended it (as a restart or an administrator
 * would), a waiter of another instance that never polls is still woken by the next release.
 */
class PostgresReleaseWatchTest {

    private static final String TABLE = "release_watch";
    private static final long HOUR = Duration.ofHours(1).toMillis();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

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

    @Test
    void aWaiterThatNeverPollsIsWokenAfterItsListenConnectionWasEnded() throws Exception {
        PostgresServer server = PostgresServer.shared();
        PostgresLockStore store = new PostgresLockStore(vertx, pool, new PostgresLockStoreSettings(
                PostgresTable.parse(TABLE), settings.keyPrefix(), false, true, Duration.ofHours(1),
                settings.operationTimeout()));
        DefaultLockRegistry other = new DefaultLockRegistry(store, settings, new BackoffWaitStrategy(vertx, HOUR, HOUR),
                new LocalLockStates(), vertx);
        other.start();
        try {
            awaitListeners(server, 2);
            String ended = server.sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    + "WHERE pid <> pg_backend_pid() AND (query LIKE 'LISTEN%' OR query = 'SELECT 1')");
            assertThat(Integer.parseInt(ended)).isGreaterThanOrEqualTo(2);
            awaitListeners(server, 2);

            String key = "rewatch-" + UUID.randomUUID();
            ReactiveDistributedLock holder = registry.obtain(key);
            assertThat(holder.acquire(Duration.ZERO, Duration.ofMinutes(1)).await().atMost(TIMEOUT)).isTrue();
            ReactiveDistributedLock waiter = other.obtain(key);
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<Boolean> outcome = new AtomicReference<>();
            waiter.acquire(Duration.ofSeconds(20)).subscribe().with(acquired -> {
                outcome.set(acquired);
                done.countDown();
            });
            Thread.sleep(200);

            assertThat(holder.release().await().atMost(TIMEOUT)).isTrue();
            assertThat(done.await(15, TimeUnit.SECONDS))
                    .as("woken by the hand-over: its polls are an hour apart and the holder's lease a minute long")
                    .isTrue();
            assertThat(outcome.get()).isTrue();
            assertThat(waiter.release().await().atMost(TIMEOUT)).isTrue();
        } finally {
            other.close();
        }
    }

    private static void awaitListeners(PostgresServer server, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (Integer.parseInt(server.sql("SELECT count(*) FROM pg_stat_activity WHERE query = 'LISTEN \""
                + TABLE + "\"'")) < count) {
            assertThat(System.nanoTime()).as("%d listening connections within 10 s", count).isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
