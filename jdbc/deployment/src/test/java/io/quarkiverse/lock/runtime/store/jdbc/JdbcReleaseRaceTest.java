package io.quarkiverse.lock.runtime.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.spi.AcquireResult;
import io.vertx.core.Vertx;

/**
 * The waiting line where the lock row's {@code queued} column decides whether the line is read, on each database:
 * <ul>
 * <li>the release of a lock nobody seems to wait for, racing a waiter that joins the line: the waiter's transaction
 * locked the key's row and took its place in line; the release was sent meanwhile and waits for the row. Once the
 * waiter's transaction commits, the release must see the waiter and hand it the lock, although the release's own
 * statement began before the waiter's place existed: otherwise the lock is freed with a waiter in line that nobody
 * tells, which then waits for its next poll;</li>
 * <li>a lock row deleted by hand while waiters are in line: the row comes back saying nobody waits, and the waiters'
 * order must survive it.</li>
 * </ul>
 */
class JdbcReleaseRaceTest {

    private static final JdbcTable TABLE = JdbcTable.parse("release_race");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long LEASE_MILLIS = 60_000;

    private final Vertx vertx = Vertx.vertx();
    private AgroalDataSource pool;
    private JdbcLockStore store;

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
        if (pool != null) {
            pool.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void aReleaseWaitingForTheRowHandsTheLockToTheWaiterThatJoinedMeanwhile(TestDatabase database) throws Exception {
        String key = heldByHolder(database, "race-");

        JdbcStatements statements = new JdbcStatements(database.dialect, TABLE);
        CompletableFuture<Boolean> release;
        try (Connection waiter = pool.getConnection()) {
            waiter.setAutoCommit(false);
            JdbcTransaction tx = new JdbcTransaction(waiter, statements, System.nanoTime() + TIMEOUT.toNanos());
            AcquireResult refused = new JdbcLockOperations(statements).acquire(tx, JdbcKey.of(key), "waiter",
                    LEASE_MILLIS, true);
            assertThat(refused.acquired()).isFalse();

            release = store.release(key, "holder").subscribeAsCompletionStage();
            awaitOneWaitingForARowLock(database, release);
            waiter.commit();
        }

        assertThat(release.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(store.isHeld(key, "waiter").await().atMost(TIMEOUT))
                .as("the release handed the lock to the waiter in line when it ran").isTrue();
        assertThat(store.release(key, "waiter").await().atMost(TIMEOUT)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void waitersKeepTheirOrderWhenTheLockRowIsDeletedByHand(TestDatabase database) throws Exception {
        String key = heldByHolder(database, "row-lost-");
        assertThat(store.tryAcquire(key, "first", LEASE_MILLIS, true).await().atMost(TIMEOUT).acquired()).isFalse();
        assertThat(store.tryAcquire(key, "second", LEASE_MILLIS, true).await().atMost(TIMEOUT).acquired()).isFalse();

        try (Connection connection = pool.getConnection();
                var delete = connection.prepareStatement("DELETE FROM " + TABLE.sql() + " WHERE lock_id = ?")) {
            delete.setBytes(1, JdbcKey.of(key).id());
            assertThat(delete.executeUpdate()).isEqualTo(1);
        }
        assertThat(store.tryAcquire(key, "newcomer", LEASE_MILLIS, false).await().atMost(TIMEOUT).acquired())
                .as("the row is gone, and a lock nobody holds goes to whoever asks first").isTrue();
        assertThat(store.tryAcquire(key, "second", LEASE_MILLIS, true).await().atMost(TIMEOUT).acquired()).isFalse();
        assertThat(store.tryAcquire(key, "first", LEASE_MILLIS, true).await().atMost(TIMEOUT).acquired()).isFalse();

        assertThat(store.release(key, "newcomer").await().atMost(TIMEOUT)).isTrue();
        assertThat(store.isHeld(key, "first").await().atMost(TIMEOUT))
                .as("the release handed the lock to the first in line, whose place the row's loss left").isTrue();
        assertThat(store.release(key, "first").await().atMost(TIMEOUT)).isTrue();
        assertThat(store.isHeld(key, "second").await().atMost(TIMEOUT)).isTrue();
        assertThat(store.release(key, "second").await().atMost(TIMEOUT)).isTrue();
    }

    /** Opens the pool and the store on the database, and acquires a new key as {@code holder}. */
    private String heldByHolder(TestDatabase database, String keyPrefix) {
        pool = database.pool("release-race");
        store = new JdbcLockStore(vertx, pool, new JdbcLockStoreSettings(TABLE, "", true, 2, Duration.ofMillis(100),
                Duration.ofHours(1), TIMEOUT));
        String key = keyPrefix + UUID.randomUUID();
        assertThat(store.tryAcquire(key, "holder", LEASE_MILLIS, false).await().atMost(TIMEOUT).acquired()).isTrue();
        return key;
    }

    private void awaitOneWaitingForARowLock(TestDatabase database, CompletableFuture<Boolean> release)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        try (Connection observer = pool.getConnection()) {
            while (countWaiting(observer, database) == 0) {
                assertThat(release).as("the release, which must wait for the waiter's transaction").isNotDone();
                assertThat(System.nanoTime()).as("the release waits for the row lock in time").isLessThan(deadline);
                Thread.sleep(10);
            }
        }
    }

    private static long countWaiting(Connection observer, TestDatabase database) throws SQLException {
        try (var statement = observer.createStatement(); var rows = statement.executeQuery(database.waitingForLocks)) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
