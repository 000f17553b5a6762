package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A Redis that stops answering (its process paused) or goes away (stopped, then started again on the same port):
 * operations fail with {@link LockException} within the operation timeout instead of hanging, and the locks work
 * again once the server is back, without restarting the application. The test owns its server, since it stops it.
 */
class RedisOutageTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RECOVERY = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.ownedBy(RedisOutageTest.class)
            .overrideConfigKey("quarkus.lock.operation-timeout", "1s");

    @Inject
    LockRegistry registry;

    @Inject
    LocalLockStates localStates;

    @Test
    void aHungServerMakesOperationsFailInBoundedTimeAndAnAbandonedGrantIsTakenBack() throws Exception {
        String key = "hung-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        RedisServer.ownedBy(RedisOutageTest.class).pause();
        long start = System.nanoTime();
        try {
            assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofMinutes(5)).await().atMost(TIMEOUT))
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining(key)
                    .hasMessageContaining("no answer within PT1S");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        } finally {
            RedisServer.ownedBy(RedisOutageTest.class).resume();
        }

        ReactiveDistributedLock other = registry.obtain(key);
        assertThat(StoreRecovery.await(() -> other.acquireOnce().await().atMost(TIMEOUT), acquired -> acquired, RECOVERY))
                .as("the attempt that timed out (lease: five minutes) was granted when the server resumed, "
                        + "and then taken back at once")
                .isTrue();
        assertThat(lock.fencingToken()).isEmpty();
    }

    @Test
    void locksWorkAgainOnceAStoppedServerIsBack() throws Exception {
        RedisServer.ownedBy(RedisOutageTest.class).shutdown();
        ReactiveDistributedLock lock = registry.obtain("outage-" + UUID.randomUUID());
        assertThatThrownBy(() -> lock.acquireOnce().await().atMost(TIMEOUT)).isInstanceOf(LockException.class);

        ReactiveDistributedLock waiter = registry.obtain("outage-waiter-" + UUID.randomUUID());
        assertThatThrownBy(() -> waiter.acquire(Duration.ofSeconds(3)).await().atMost(TIMEOUT))
                .isInstanceOf(LockException.class);

        long down = System.nanoTime();
        RedisServer.restartOwnedBy(RedisOutageTest.class);
        assertThat(StoreRecovery.await(() -> lock.acquireOnce().await().atMost(TIMEOUT), acquired -> acquired,
                RECOVERY)).isTrue();
        System.out.printf("Locks worked again %d ms after redis-server was restarted%n",
                Duration.ofNanos(System.nanoTime() - down).toMillis());
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
        assertThat(localStates.size()).as("no local state left by the failed waits").isZero();
    }
}
