package io.quarkiverse.lock.deployment.postgresql;

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
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.BoundedFailure;
import io.quarkiverse.lock.testsupport.Pause;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.StoreReadiness;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A PostgreSQL server that stops answering (its processes paused) or goes away (stopped, then started again on the
 * same port): operations fail with {@link LockException} within the operation timeout instead of hanging, readiness is
 * down, and the locks work again once the server is back, without restarting the application, leaving no local state
 * behind. The test owns its server, since it stops it.
 */
class PostgresOutageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration MARGIN = Duration.ofSeconds(2);
    private static final Duration RECOVERY = Duration.ofSeconds(20);

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(PostgresServer.ownedBy(PostgresOutageTest.class), "outage")
            .overrideConfigKey("quarkus.lock.operation-timeout", OPERATION_TIMEOUT.toString());

    @Inject
    LockRegistry registry;

    @Inject
    LocalLockStates localStates;

    @Test
    void aHungServerMakesOperationsFailInBoundedTimeAndAnAbandonedGrantIsTakenBack() throws Exception {
        String key = "hung-" + UUID.randomUUID();
        ReactiveDistributedLock lock = workingLock(key);

        PostgresServer.ownedBy(PostgresOutageTest.class).pause();
        try {
            BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plus(MARGIN), LockException.class,
                    () -> lock.acquire(Duration.ZERO, Duration.ofMinutes(5)).await().atMost(TIMEOUT), key,
                    "no answer within PT1S");
            StoreReadiness.assertDown("postgresql");
        } finally {
            PostgresServer.ownedBy(PostgresOutageTest.class).resume();
        }

        ReactiveDistributedLock other = registry.obtain(key);
        assertThat(StoreRecovery.await(() -> other.acquireOnce().await().atMost(TIMEOUT), acquired -> acquired,
                RECOVERY))
                .as("the attempt that timed out (lease: five minutes) ran when the server resumed, and its take-back "
                        + "ran after it")
                .isTrue();
        assertThat(lock.fencingToken()).isEmpty();
        assertThat(other.release().await().atMost(TIMEOUT)).isTrue();
        StoreReadiness.assertUp();
    }

    /**
     * More statements in flight than the pool has connections (20 by default) when the server is paused: each fails
     * within the operation timeout, the pool serves new statements once the server resumes, and no lock stays held.
     */
    @Test
    void statementsInFlightOnAPausedServerFailInBoundedTimeAndThePoolRecovers() throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            keys.add("paused-" + i + "-" + UUID.randomUUID());
        }
        workingLock(keys.get(0)).release().await().atMost(TIMEOUT);

        List<CompletableFuture<Boolean>> inFlight = new ArrayList<>();
        PostgresServer.ownedBy(PostgresOutageTest.class).pause();
        // again, for a backend the postmaster was forking at the first signal
        Pause.sleep(100);
        PostgresServer.ownedBy(PostgresOutageTest.class).pause();
        long paused = System.nanoTime();
        try {
            for (String key : keys) {
                inFlight.add(registry.obtain(key).acquire(Duration.ZERO, Duration.ofMinutes(5))
                        .subscribeAsCompletionStage());
            }
            for (CompletableFuture<Boolean> statement : inFlight) {
                long left = OPERATION_TIMEOUT.plus(MARGIN).toNanos() - (System.nanoTime() - paused);
                assertThat(statement).as("failed within the operation timeout")
                        .failsWithin(Math.max(1, left), TimeUnit.NANOSECONDS)
                        .withThrowableOfType(ExecutionException.class).havingCause().isInstanceOf(LockException.class);
            }
        } finally {
            PostgresServer.ownedBy(PostgresOutageTest.class).resume();
        }

        long resumed = System.nanoTime();
        ReactiveDistributedLock fresh = registry.obtain("after-pause-" + UUID.randomUUID());
        assertThat(StoreRecovery.await(() -> fresh.acquireOnce().await().atMost(TIMEOUT), acquired -> acquired,
                RECOVERY)).as("the pool serves new statements once the server resumes").isTrue();
        assertThat(fresh.release().await().atMost(TIMEOUT)).isTrue();
        for (String key : keys) {
            ReactiveDistributedLock other = registry.obtain(key);
            assertThat(StoreRecovery.await(() -> other.acquireOnce().await().atMost(TIMEOUT), acquired -> acquired,
                    RECOVERY)).as("%s is not left held by an attempt that failed", key).isTrue();
            assertThat(other.release().await().atMost(TIMEOUT)).isTrue();
        }
        System.out.printf("PostgreSQL pause: %d statements in flight failed in time; every key was free %d ms after "
                + "the server resumed%n", keys.size(), Duration.ofNanos(System.nanoTime() - resumed).toMillis());
        StoreReadiness.assertUp();
        assertThat(localStates.size()).as("no local state left by the failed operations").isZero();
    }

    @Test
    void operationsFailInBoundedTimeWhileTheServerIsDownAndWorkOnceItIsBack() throws InterruptedException {
        String key = "outage-" + UUID.randomUUID();
        ReactiveDistributedLock lock = workingLock(key);

        PostgresServer.ownedBy(PostgresOutageTest.class).stop();
        int failures = 0;
        BoundedFailure.assertFailsWithin(OPERATION_TIMEOUT.plus(MARGIN), LockException.class,
                () -> lock.acquireOnce().await().atMost(TIMEOUT), key);
        failures++;
        ReactiveDistributedLock waiter = registry.obtain("outage-waiter-" + UUID.randomUUID());
        BoundedFailure.assertFailsWithin(Duration.ofSeconds(2).plus(OPERATION_TIMEOUT).plus(MARGIN),
                LockException.class, () -> waiter.acquire(Duration.ofSeconds(2)).await().atMost(TIMEOUT));
        failures++;
        StoreReadiness.assertDown("postgresql");

        long restarted = System.nanoTime();
        PostgresServer.ownedBy(PostgresOutageTest.class).restart();
        boolean acquired = StoreRecovery.await(() -> lock.acquireOnce().await().atMost(TIMEOUT), done -> done,
                RECOVERY);
        assertThat(acquired).as("acquired within 20 s of the server's return").isTrue();
        System.out.printf("PostgreSQL outage: %d LockExceptions while down, locks worked again %d ms after the "
                + "server was started again%n", failures, Duration.ofNanos(System.nanoTime() - restarted).toMillis());
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        StoreReadiness.assertUp();
        assertThat(localStates.size()).as("no local state left by the failed operations").isZero();
    }

    /** @return a handle on {@code key} that acquired and released its lock once, before the server breaks */
    private ReactiveDistributedLock workingLock(String key) {
        ReactiveDistributedLock lock = registry.obtain(key);
        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).as("acquired before the outage").isTrue();
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        return lock;
    }
}
