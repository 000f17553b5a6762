package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.BoundedFailure;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;

/**
 * The JDBC store's grants whose outcome its caller cannot know, through a proxy between the JDBC driver and a private
 * PostgreSQL or MariaDB server: replies lost on a connection that stays open (a partition, a NAT that dropped the flow,
 * a vanished host), where the proxy drops every server message answering what makes a grant durable, the
 * {@code COMMIT} of an acquisition's transaction or the one statement of an uncontended acquisition
 * ({@code GRANT_ALONE}), and nothing else (the grant committed, nothing came back, and a read of the socket never ends
 * by itself: the driver's query timeout cancels a statement on the server, which has nothing left to cancel); and a
 * grant whose request is held on its way and reaches the server after its take-back.
 */
class JdbcLostReplyTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    /** What only the one-statement grant of an uncontended acquisition says. */
    private static final String GRANT_ALONE = " AND queued = 0 AND (owner IS NULL OR held_until <= ";
    private static final Duration MARGIN = Duration.ofSeconds(2);
    private static final Duration RECOVERY = Duration.ofSeconds(8);

    private final JdbcInstances instances = new JdbcInstances();

    @AfterEach
    void close() throws Exception {
        instances.close();
    }

    /**
     * One-try {@code acquireForever} calls, one more than the store has threads, each on a key of its own (the first
     * one used before, so that its grant is the one statement, the others new), whose grants committed but whose
     * answers are lost: each caller fails within the operation timeout; the threads that
     * waited for the answers are freed soon after, so every grant is taken back (another instance gets each lock once
     * the first lets it go) and the same instance can use every key again soon after the network heals, instead of
     * every thread of the store waiting for good on a read that never ends.
     */
    @ParameterizedTest
    @EnumSource(ServerDatabase.class)
    void lostGrantsAreTakenBackAndTheStoreWorksAgain(ServerDatabase database) throws Exception {
        AtomicBoolean dropping = new AtomicBoolean();
        int port = database.shared().port();
        FaultProxy proxy = FaultProxy.start("127.0.0.1", port, database.protocol())
                .rule(exchange -> dropping.get() && grants(exchange.request()) ? Fault.drop() : Fault.pass());
        instances.closing(proxy);
        String table = "lost_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        StandaloneLockRegistry registry = instances.registry(database, proxy.port(), table, OPERATION_TIMEOUT);
        StandaloneLockRegistry other = instances.registry(database, port, table, OPERATION_TIMEOUT);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i <= JdbcInstances.THREADS; i++) {
            keys.add("lost-" + i + "-" + UUID.randomUUID());
        }
        ReactiveDistributedLock first = registry.obtain(keys.get(0));
        assertThat(StoreRecovery.await(() -> first.acquireOnce().await().atMost(RECOVERY), acquired -> acquired,
                RECOVERY)).as("acquired before the fault, once the tables are made").isTrue();
        assertThat(first.release().await().atMost(RECOVERY)).isTrue();

        dropping.set(true);
        try {
            for (String key : keys) {
                BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plus(MARGIN), LockException.class,
                        () -> registry.obtain(key).acquireForever().await().atMost(RECOVERY), key);
            }
        } finally {
            dropping.set(false);
        }
        assertThat(proxy.counts().drops()).as("the proxy dropped the grants' answers").isPositive();

        long healed = System.nanoTime();
        for (String key : keys) {
            ReactiveDistributedLock lock = registry.obtain(key);
            assertThat(StoreRecovery.await(() -> lock.acquireOnce().await().atMost(RECOVERY), acquired -> acquired,
                    RECOVERY)).as("the same instance acquires %s again within %s of the network healing", key, RECOVERY)
                    .isTrue();
            ReactiveDistributedLock elsewhere = other.obtain(key);
            assertThat(elsewhere.acquireOnce().await().atMost(RECOVERY))
                    .as("another instance is refused %s while the first holds it", key).isFalse();
            assertThat(lock.release().await().atMost(RECOVERY)).isTrue();
            assertThat(elsewhere.acquireOnce().await().atMost(RECOVERY))
                    .as("the lost grant of %s (held forever) was taken back", key).isTrue();
            assertThat(elsewhere.release().await().atMost(RECOVERY)).isTrue();
        }
        System.out.printf("JDBC lost grants on %s: every key was usable again %d ms after the network healed%n",
                database, Duration.ofNanos(System.nanoTime() - healed).toMillis());
    }

    /**
     * The one-statement grant of an uncontended acquisition whose request bytes are held on the way (a lossy path
     * retransmitting them after the client closed its socket, a middlebox): the caller fails at the operation timeout,
     * the read's network timeout aborts the connection, and the take-back runs on a new connection and finds nothing.
     * The held bytes then reach the server, which would run the statement in auto-commit and grant the lock, for ever,
     * to the acquisition that gave up, unless the session that carried them was ended on the server before the
     * take-back ran, as the store does.
     */
    @ParameterizedTest
    @EnumSource(ServerDatabase.class)
    void aGrantHeldOnTheWayIsNotStrandedAfterItsTakeBack(ServerDatabase database) throws Exception {
        int port = database.shared().port();
        FaultProxy proxy = FaultProxy.start("127.0.0.1", port, database.protocol());
        instances.closing(proxy);
        String table = "held_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        StandaloneLockRegistry registry = instances.registry(database, proxy.port(), table, OPERATION_TIMEOUT);
        StandaloneLockRegistry other = instances.registry(database, port, table, OPERATION_TIMEOUT);
        String key = "held-" + UUID.randomUUID();

        // the key's row exists, so the next acquisition is the one statement
        ReactiveDistributedLock first = registry.obtain(key);
        assertThat(StoreRecovery.await(() -> first.acquireOnce().await().atMost(RECOVERY), acquired -> acquired,
                RECOVERY)).as("acquired before the fault, once the tables are made").isTrue();
        assertThat(first.release().await().atMost(RECOVERY)).isTrue();

        if (database == ServerDatabase.MARIADB) {
            // MariaDB's requests carry their SQL: hold the grant statement alone
            proxy.holdRequests(request -> request != null && request.contains(GRANT_ALONE));
        } else {
            // PostgreSQL's requests are named only at their Sync: hold the first request sent from now on, which
            // is the grant (the store sends nothing else meanwhile on this key; the release watch listens elsewhere)
            AtomicBoolean once = new AtomicBoolean(true);
            proxy.holdRequests(request -> once.compareAndSet(true, false));
        }
        BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plusSeconds(2), LockException.class,
                () -> registry.obtain(key).acquireForever().await().atMost(RECOVERY), key);
        assertThat(proxy.heldRequests()).as("the grant is held on the way").isPositive();
        // the network timeout of the read (operation timeout + 1 s) aborts the connection; the take-backs run after it
        Thread.sleep(OPERATION_TIMEOUT.plusSeconds(3).toMillis());
        ReactiveDistributedLock meanwhile = other.obtain(key);
        assertThat(meanwhile.acquireOnce().await().atMost(RECOVERY))
                .as("before the held bytes arrive, the lock is free").isTrue();
        assertThat(meanwhile.release().await().atMost(RECOVERY)).isTrue();

        // the partition heals: the retransmitted statement reaches the server, unless its session is gone
        boolean answered = proxy.deliverHeld();

        ReactiveDistributedLock elsewhere = other.obtain(key);
        boolean acquired = StoreRecovery.await(() -> elsewhere.acquireOnce().await().atMost(RECOVERY), got -> got,
                RECOVERY);
        assertThat(acquired).as("the lock %s is not held for ever by the acquisition that gave up (the held statement "
                + "was %s)", key, answered ? "answered" : "not answered: its session was gone").isTrue();
    }

    private static boolean grants(String request) {
        return "COMMIT".equals(request) || (request != null && request.contains(GRANT_ALONE));
    }

}
