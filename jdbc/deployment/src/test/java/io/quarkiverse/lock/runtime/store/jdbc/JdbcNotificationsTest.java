package io.quarkiverse.lock.runtime.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.deployment.jdbc.ServerDatabase;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.vertx.core.Vertx;

/**
 * On PostgreSQL, a hand-over made by one instance reaches a waiter of another at once, through a notification: the
 * waiting instance's poll of hand-overs is an hour apart here, so only the notification can tell it. While the
 * listening connection is up, the store says every release is announced; when the watch closes, it says so no more.
 */
class JdbcNotificationsTest {

    private static final JdbcTable TABLE = JdbcTable.parse("notified");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long LEASE_MILLIS = 60_000;

    private final Vertx vertx = Vertx.vertx();
    private final BlockingQueue<String> told = new LinkedBlockingQueue<>();
    private final List<AgroalDataSource> pools = new ArrayList<>();
    private final List<JdbcLockStore> stores = new ArrayList<>();

    @AfterEach
    void close() {
        stores.forEach(JdbcLockStore::close);
        pools.forEach(AgroalDataSource::close);
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aHandOverByAnotherInstanceIsToldAtOnce() throws Exception {
        JdbcLockStore releasing = open();
        JdbcLockStore waiting = open();
        AutoCloseable watch = waiting.watchReleases(recorder());
        assertThat(awaitTold("every release announced: true")).as("the listening connection is up").isTrue();

        String key = "notified-" + UUID.randomUUID();
        assertThat(releasing.tryAcquire(key, "holder", LEASE_MILLIS, false).await().atMost(TIMEOUT).acquired())
                .isTrue();
        assertThat(waiting.tryAcquire(key, "waiter", LEASE_MILLIS, true).await().atMost(TIMEOUT).acquired())
                .isFalse();
        told.clear();
        assertThat(releasing.release(key, "holder").await().atMost(TIMEOUT)).isTrue();

        String handedOver = told.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        assertThat(handedOver).as("what the waiting instance heard").startsWith(key + " to waiter at ");
        long token = Long.parseLong(handedOver.substring(handedOver.lastIndexOf(' ') + 1));
        assertThat(waiting.tryAcquire(key, "waiter", LEASE_MILLIS, true).await().atMost(TIMEOUT).token())
                .as("the hold the notification told of").isEqualTo(token);

        watch.close();
        assertThat(awaitTold("every release announced: false")).as("a closed watch announces nothing").isTrue();
    }

    private JdbcLockStore open() {
        AgroalDataSource pool = ServerDatabase.POSTGRESQL.pool(ServerDatabase.POSTGRESQL.shared().port(), 4);
        pools.add(pool);
        JdbcLockStore store = new JdbcLockStore(vertx, pool, new JdbcLockStoreSettings(TABLE, "", true, 2,
                Duration.ofHours(1), Duration.ofHours(1), TIMEOUT));
        stores.add(store);
        assertThat(store.detect()).isEqualTo(JdbcDialect.POSTGRESQL);
        return store;
    }

    private boolean awaitTold(String expected) throws InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        for (long left = TIMEOUT.toNanos(); left > 0; left = deadline - System.nanoTime()) {
            if (expected.equals(told.poll(left, TimeUnit.NANOSECONDS))) {
                return true;
            }
        }
        return false;
    }

    private ReleaseListener recorder() {
        return new ReleaseListener() {
            @Override
            public void released(String key) {
                told.add("released " + key);
            }

            @Override
            public void handedOver(String key, String owner, long token) {
                told.add(key + " to " + owner + " at " + token);
            }

            @Override
            public void mayHaveMissed() {
                told.add("missed");
            }

            @Override
            public void announcesEveryRelease(boolean every) {
                told.add("every release announced: " + every);
            }
        };
    }
}
