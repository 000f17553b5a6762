package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.BoundedFailure;
import io.quarkiverse.lock.testsupport.MariaDbServer;
import io.quarkiverse.lock.testsupport.StoreReadiness;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A MariaDB server that goes away (stopped, then started again on the same port and data): the JDBC store's
 * operations fail with {@link LockException} within the operation timeout instead of hanging, readiness is down, and
 * the locks work again once the server is back, without restarting the application, leaving no local state behind.
 * The test owns its server, since it stops it.
 */
class MariaDbOutageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration MARGIN = Duration.ofSeconds(2);
    private static final Duration RECOVERY = Duration.ofSeconds(20);
    /** More operations at once than the store has threads (8 by default) and the pool connections (20). */
    private static final int IN_FLIGHT = 30;

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.mariaDb(server(), "outage")
            .overrideConfigKey("quarkus.lock.operation-timeout", OPERATION_TIMEOUT.toString());

    @Inject
    LockRegistry registry;

    @Inject
    LocalLockStates localStates;

    @Test
    void operationsFailInBoundedTimeWhileTheServerIsDownAndWorkOnceItIsBack() throws InterruptedException {
        String key = "outage-" + UUID.randomUUID();
        ReactiveDistributedLock lock = workingLock(key);

        server().stop();
        int failures = 0;
        try {
            BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plus(MARGIN), LockException.class,
                    () -> lock.acquireOnce().await().atMost(TIMEOUT), key);
            failures++;
            ReactiveDistributedLock waiter = registry.obtain("outage-waiter-" + UUID.randomUUID());
            BoundedFailure.assertFailsWithin(Duration.ofSeconds(2).plus(OPERATION_TIMEOUT).plus(MARGIN),
                    LockException.class, () -> waiter.acquire(Duration.ofSeconds(2)).await().atMost(TIMEOUT));
            failures++;
            StoreReadiness.assertDown(JdbcLockStore.NAME);
        } finally {
            server().restart();
        }

        long restarted = System.nanoTime();
        assertThat(StoreRecovery.await(() -> lock.acquireOnce().await().atMost(TIMEOUT), done -> done, RECOVERY))
                .as("acquired within %s of the server's return", RECOVERY).isTrue();
        System.out.printf("MariaDB outage: %d LockExceptions while down, locks worked again %d ms after the server "
                + "was started again%n", failures, Duration.ofNanos(System.nanoTime() - restarted).toMillis());
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        StoreReadiness.assertUp();
        assertThat(localStates.size()).as("no local state left by the failed operations").isZero();
    }

    /**
     * More acquisitions at once than the store has threads and the pool has connections, while the server is down:
     * each fails within the operation timeout, none leaves its key held once the server is back, and the store's
     * threads and pool serve new operations then.
     */
    @Test
    void operationsInFlightWhileTheServerIsDownFailInBoundedTimeAndLeaveNoLockHeld() throws InterruptedException {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < IN_FLIGHT; i++) {
            keys.add("in-flight-" + i + "-" + UUID.randomUUID());
        }
        workingLock(keys.get(0));

        List<CompletableFuture<Boolean>> inFlight = new ArrayList<>();
        server().stop();
        long stopped = System.nanoTime();
        try {
            for (String key : keys) {
                inFlight.add(registry.obtain(key).acquire(Duration.ZERO, Duration.ofMinutes(5))
                        .subscribeAsCompletionStage());
            }
            for (CompletableFuture<Boolean> acquisition : inFlight) {
                long left = OPERATION_TIMEOUT.plus(MARGIN).toNanos() - (System.nanoTime() - stopped);
                assertThat(acquisition).as("failed within the operation timeout")
                        .failsWithin(Math.max(1, left), TimeUnit.NANOSECONDS)
                        .withThrowableOfType(ExecutionException.class).havingCause().isInstanceOf(LockException.class);
            }
        } finally {
            server().restart();
        }

        ReactiveDistributedLock fresh = registry.obtain("after-outage-" + UUID.randomUUID());
        assertThat(StoreRecovery.await(() -> fresh.acquireOnce().await().atMost(TIMEOUT), acquired -> acquired,
                RECOVERY)).as("the store serves new operations once the server is back").isTrue();
        assertThat(fresh.release().await().atMost(TIMEOUT)).isTrue();
        for (String key : keys) {
            ReactiveDistributedLock other = registry.obtain(key);
            assertThat(StoreRecovery.await(() -> other.acquireOnce().await().atMost(TIMEOUT), acquired -> acquired,
                    RECOVERY)).as("%s is not left held by an acquisition that failed", key).isTrue();
            assertThat(other.release().await().atMost(TIMEOUT)).isTrue();
        }
        StoreReadiness.assertUp();
        assertThat(localStates.size()).as("no local state left by the failed operations").isZero();
    }

    /**
     * The database keeps its rows through a restart: a lock held when the server went down is still held once it is
     * back, other handles are refused it, and its own handle releases it.
     */
    @Test
    void aLockHeldWhenTheServerWentDownIsStillHeldOnceItIsBack() throws InterruptedException {
        String key = "held-" + UUID.randomUUID();
        ReactiveDistributedLock holder = registry.obtain(key);
        assertThat(holder.acquire(Duration.ZERO, Duration.ofMinutes(5)).await().atMost(TIMEOUT)).isTrue();
        long token = holder.fencingToken().orElseThrow();

        server().stop();
        try {
            BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plus(MARGIN), LockException.class,
                    () -> registry.obtain(key).acquireOnce().await().atMost(TIMEOUT), key);
        } finally {
            server().restart();
        }

        ReactiveDistributedLock other = registry.obtain(key);
        assertThat(StoreRecovery.await(() -> other.acquireOnce().await().atMost(TIMEOUT), acquired -> true, RECOVERY))
                .as("another handle is refused the lock held before the outage").isFalse();
        assertThat(holder.release().await().atMost(TIMEOUT)).as("released by its holder after the outage").isTrue();
        assertThat(other.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(other.fencingToken().orElseThrow()).as("the next hold's token").isGreaterThan(token);
        assertThat(other.release().await().atMost(TIMEOUT)).isTrue();
    }

    /** @return a handle on {@code key} that acquired and released its lock once, before the server goes away */
    private ReactiveDistributedLock workingLock(String key) {
        ReactiveDistributedLock lock = registry.obtain(key);
        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).as("acquired before the outage").isTrue();
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        return lock;
    }

    private static MariaDbServer server() {
        return MariaDbServer.ownedBy(MariaDbOutageTest.class);
    }
}
