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
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.vertx.core.Vertx;

/**
 * On PostgreSQL, a hand-over made by one instance reaches a waiter of another at once, through a notification: the
 * waiting instance's poll of hand-overs is an hour apart here, so only the notification can tell it. While the
 * listening connection is up, the store says every release is announced; when the watch closes, it says so no more.
 * Also for a table of the longest names, and not on a pool of one connection.
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
        handOverIsToldAtOnce(TABLE);
    }

    /**
     * A channel name ends at 63 bytes, and PostgreSQL refuses a longer one to {@code pg_notify}: a channel named as a
     * schema-qualified table of the longest names failed every hand-over, so the release of a lock waited for.
     */
    @Test
    void aTableOfTheLongestQualifiedNameHasItsHandOversAnnounced() throws Exception {
        String longest = "n".repeat(58);
        PostgresServer.shared().sql("CREATE SCHEMA IF NOT EXISTS " + longest);
        handOverIsToldAtOnce(JdbcTable.parse(longest + "." + longest));
    }

    /** A pool of one connection, which a connection kept to listen would leave without any for the locks. */
    @Test
    void aPoolOfOneConnectionIsNotListenedTo() throws Exception {
        JdbcLockStore store = open(TABLE, 1);
        try (AutoCloseable watch = store.watchReleases(recorder())) {
            String key = "alone-" + UUID.randomUUID();
            for (int i = 0; i < 3; i++) {
                assertThat(store.tryAcquire(key, "owner-" + i, LEASE_MILLIS, false).await().atMost(TIMEOUT).acquired())
                        .as("acquired on the pool's one connection").isTrue();
                assertThat(store.release(key, "owner-" + i).await().atMost(TIMEOUT)).isTrue();
                Thread.sleep(100);
            }
        }
        assertThat(told).as("no listening connection, so no announcement").doesNotContain("every release announced: true");
    }

    /**
     * A listening session ended on the server is replaced, again and again, without losing a connection of the pool
     * each time: on a pool of two, one listening, the locks keep the other.
     */
    @Test
    void aListeningSessionEndedOnTheServerIsReplacedWithoutLosingAConnection() throws Exception {
        JdbcLockStore store = open(TABLE, 2);
        try (AutoCloseable watch = store.watchReleases(recorder())) {
            for (int i = 0; i < 3; i++) {
                assertThat(awaitTold("every release announced: true")).as("listening, time %d", i).isTrue();
                assertThat(PostgresServer.shared().sql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                        + " WHERE query = 'LISTEN \"" + TABLE.name() + "\"'")).as("the listening session ended")
                        .isEqualTo("1");
                assertThat(awaitTold("every release announced: false")).isTrue();
            }
            assertThat(awaitTold("every release announced: true")).as("listening again").isTrue();
            String key = "kept-" + UUID.randomUUID();
            assertThat(store.tryAcquire(key, "owner", LEASE_MILLIS, false).await().atMost(TIMEOUT).acquired())
                    .as("a connection is left for the locks").isTrue();
            assertThat(store.release(key, "owner").await().atMost(TIMEOUT)).isTrue();
        }
    }

    private void handOverIsToldAtOnce(JdbcTable table) throws Exception {
        JdbcLockStore releasing = open(table, 4);
        JdbcLockStore waiting = open(table, 4);
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

    private JdbcLockStore open(JdbcTable table, int connections) {
        AgroalDataSource pool = ServerDatabase.POSTGRESQL.pool(ServerDatabase.POSTGRESQL.shared().port(), connections);
        pools.add(pool);
        JdbcLockStore store = new JdbcLockStore(vertx, pool, new JdbcLockStoreSettings(table, "", true, 2,
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
