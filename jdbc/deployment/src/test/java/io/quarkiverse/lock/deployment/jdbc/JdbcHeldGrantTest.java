package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStore;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStoreSettings;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcTable;
import io.quarkiverse.lock.spi.LockRegistrySettings;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.BoundedFailure;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.vertx.core.Vertx;

/**
 * The JDBC store's one-statement grant ({@code grantAlone}, auto-commit) whose request bytes are held on the way (a
 * lossy path retransmitting them after the client closed its socket, a middlebox): the caller fails at the operation
 * timeout, the read's network timeout aborts the connection, and the take-back runs on a new connection and finds
 * nothing. The held bytes then reach the server, which would run the statement in auto-commit and grant the lock, for
 * ever, to the acquisition that gave up, unless the session that carried them was ended on the server before the
 * take-back ran, as the store does.
 */
class JdbcHeldGrantTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    /** What only the one-statement grant of an uncontended acquisition says. */
    private static final String GRANT_ALONE = " AND queued = 0 AND (owner IS NULL OR held_until <= ";
    private static final Duration RECOVERY = Duration.ofSeconds(8);

    private final Vertx vertx = Vertx.vertx();
    private final Deque<AutoCloseable> opened = new ArrayDeque<>();

    @AfterEach
    void close() throws Exception {
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @ParameterizedTest
    @EnumSource(ServerDatabase.class)
    void aGrantHeldOnTheWayIsNotStrandedAfterItsTakeBack(ServerDatabase database) throws Exception {
        int port = database.shared().port();
        FaultProxy proxy = FaultProxy.start("127.0.0.1", port, database.protocol());
        opened.push(proxy);
        String table = "held_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        StandaloneLockRegistry registry = registry(database, proxy.port(), table);
        StandaloneLockRegistry other = registry(database, port, table);
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

    private StandaloneLockRegistry registry(ServerDatabase database, int port, String table) {
        AgroalDataSource pool = database.pool(port, 8);
        opened.push(pool);
        JdbcLockStore store = new JdbcLockStore(vertx, pool, new JdbcLockStoreSettings(JdbcTable.parse(table), "", true,
                4, Duration.ofHours(1), Duration.ofHours(1), OPERATION_TIMEOUT));
        StandaloneLockRegistry registry = StandaloneLockRegistry.over(store, vertx)
                .settings(LockRegistrySettings.defaults().withOperationTimeout(OPERATION_TIMEOUT)).start();
        opened.push(registry);
        return registry;
    }
}
