package io.quarkiverse.lock.runtime.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.vertx.core.Vertx;

/**
 * What an operation sends, on each database, read from the statements the store prepares and the commits it asks
 * for on a datasource that records them: an uncontended acquisition and its release are one statement each, outside a
 * transaction (on MariaDB, whose update cannot answer a row, the token comes back as its generated key); on a key where this
 * instance found a line, both go straight to the transaction that reads it. The watch for hand-overs queries only
 * while a waiter of the instance is in a line.
 */
class JdbcRoundTripsTest {

    private static final JdbcTable TABLE = JdbcTable.parse("round_trips");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long LEASE_MILLIS = 60_000;
    private static final Duration POLL = Duration.ofMillis(100);

    private final Vertx vertx = Vertx.vertx();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private AgroalDataSource pool;
    private JdbcLockStore store;
    private JdbcStatements statements;

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
    void anUncontendedAcquisitionAndItsReleaseAreOneStatementEach(TestDatabase database) {
        open(database);
        String key = "alone-" + UUID.randomUUID();
        assertThat(acquire(key, "first", false)).as("the key's first acquisition, which makes its row").isTrue();
        assertThat(release(key, "first")).isTrue();

        sent.clear();
        assertThat(acquire(key, "second", false)).isTrue();
        assertThat(sent).as("the acquisition of a free lock nobody waits for").containsExactly(statements.grantAlone);

        sent.clear();
        assertThat(release(key, "second")).isTrue();
        assertThat(sent).as("its release").containsExactly(statements.releaseAlone);
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void onAKeyWithALineBothGoStraightToTheTransaction(TestDatabase database) {
        open(database);
        String key = "lined-" + UUID.randomUUID();
        assertThat(acquire(key, "holder", false)).isTrue();
        assertThat(acquire(key, "waiter", true)).as("a waiter, refused, takes a place in line").isFalse();

        sent.clear();
        assertThat(acquire(key, "waiter", true)).as("the waiter asks again").isFalse();
        assertThat(sent).as("the poll of a waiter whose line this instance saw").doesNotContain(statements.grantAlone)
                .contains(statements.lockRow);

        sent.clear();
        assertThat(release(key, "holder")).isTrue();
        assertThat(sent).as("the release of a lock waited for").doesNotContain(statements.releaseAlone)
                .contains(statements.lockRow);
        assertThat(store.isHeld(key, "waiter").await().atMost(TIMEOUT)).as("handed to the waiter").isTrue();
    }

    @ParameterizedTest
    @EnumSource(TestDatabase.class)
    void theHandOverWatchQueriesOnlyWhileAWaiterOfTheInstanceIsInALine(TestDatabase database) throws Exception {
        open(database);
        try (AutoCloseable watch = store.watchReleases(new IgnoredReleases())) {
            Thread.sleep(5 * POLL.toMillis());
            assertThat(handOverQueries()).as("hand-over queries while no waiter is in a line").isZero();

            String key = "watched-" + UUID.randomUUID();
            assertThat(acquire(key, "holder", false)).isTrue();
            assertThat(acquire(key, "waiter", true)).as("a waiter, refused, takes a place in line").isFalse();
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (handOverQueries() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(handOverQueries()).as("hand-over queries while the waiter is in line").isGreaterThanOrEqualTo(2);

            Thread.sleep(LockStore.PLACE_MILLIS + 2 * POLL.toMillis());
            long afterTheLineLapsed = handOverQueries();
            Thread.sleep(5 * POLL.toMillis());
            assertThat(handOverQueries()).as("hand-over queries once the waiter's place lapsed")
                    .isEqualTo(afterTheLineLapsed);
        }
    }

    private long handOverQueries() {
        return sent.stream().filter(statements.handedOverSince::equals).count();
    }

    private void open(TestDatabase database) {
        pool = database.pool("round-trips");
        statements = new JdbcStatements(database.dialect, TABLE);
        store = new JdbcLockStore(vertx, recording(pool), new JdbcLockStoreSettings(TABLE, "", true, 2,
                POLL, Duration.ofHours(1), TIMEOUT));
        assertThat(store.detect()).isEqualTo(database.dialect);
    }

    private boolean acquire(String key, String owner, boolean waiting) {
        return store.tryAcquire(key, owner, LEASE_MILLIS, waiting).await().atMost(TIMEOUT).acquired();
    }

    private boolean release(String key, String owner) {
        return store.release(key, owner).await().atMost(TIMEOUT);
    }

    /**
     * @return the datasource, whose connections record in {@link #sent} the SQL of every statement prepared on them,
     *         a {@code COMMIT} for every commit asked of the connection, and a mark for every plain statement made
     */
    private DataSource recording(DataSource dataSource) {
        return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { DataSource.class },
                (proxy, method, arguments) -> {
                    Object result = invoke(dataSource, method, arguments);
                    return result instanceof Connection connection ? recording(connection) : result;
                });
    }

    private Connection recording(Connection connection) {
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Connection.class },
                (proxy, method, arguments) -> {
                    if (method.getName().equals("prepareStatement")) {
                        sent.add((String) arguments[0]);
                    } else if (method.getName().equals("commit")) {
                        sent.add("COMMIT");
                    } else if (method.getName().equals("createStatement")) {
                        sent.add("a statement of unrecorded SQL");
                    }
                    return invoke(connection, method, arguments);
                });
    }

    private static Object invoke(Object target, Method method, Object[] arguments)
            throws Throwable {
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** A listener of releases that keeps nothing: the test counts the watch's queries, not what they find. */
    private static final class IgnoredReleases implements ReleaseListener {

        @Override
        public void released(String key) {
        }

        @Override
        public void handedOver(String key, String owner, long token) {
        }

        @Override
        public void mayHaveMissed() {
        }
    }
}
