package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.RedisSentinelGroup;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A failover under held and awaited locks, on a primary and a replica watched by three Redis Sentinels: locks are
 * acquired on many keys, one of them is awaited by a second handle, and the primary is killed ({@code SIGKILL}); the
 * sentinels promote the replica, and the killed server comes back as a replica of the new primary (an acquisition
 * that needs a replica's acknowledgement fails while there is none). What every run asserts: while there is no primary, an
 * operation answers or fails
 * within the operation timeout; once the replica took over, the locks work again without a restart; a holder whose
 * lock the new primary has is refused to nobody else, and one whose lock was lost is told so by {@code isAcquired()};
 * the waiter gets its lock once it is released (if the outage failed its wait with {@code LockException}, as a store
 * failure does, once it tries again); and every key's next fencing token is above the one issued before
 * the failover. How many locks survive depends on {@code quarkus.lock.redis.wait-replicas}: the outcome says.
 */
final class SentinelFailover {

    static final int LOCKS = 50;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RECOVERY = Duration.ofSeconds(30);

    private SentinelFailover() {
    }

    /**
     * @param testClass the test class, which owns the sentinel group it kills the primary of
     * @return the application on that group, with a 1 s operation timeout
     */
    static QuarkusUnitTest app(Class<?> testClass) {
        return RedisTestApp.on(RedisSentinelGroup.ownedBy(testClass).hosts(), SentinelFailover.class,
                SentinelFailover.Outcome.class)
                .overrideConfigKey("quarkus.redis.client-type", "sentinel")
                .overrideConfigKey("quarkus.redis.master-name", RedisSentinelGroup.MASTER_NAME)
                .overrideConfigKey("quarkus.lock.operation-timeout", "1s");
    }

    /** What a run found. */
    record Outcome(int survived, long failoverMillis) {
    }

    /**
     * Runs the failover once.
     *
     * @param testClass the test class owning the group
     * @param locks the application's registry
     * @return how many of the {@value #LOCKS} locks the new primary still had, and how long the failover took
     */
    static Outcome run(Class<?> testClass, LockRegistry locks) throws InterruptedException {
        RedisSentinelGroup group = RedisSentinelGroup.ownedBy(testClass);
        // a replica still in its first sync acknowledges nothing, and an acquisition that waits for it fails
        group.awaitReplica(group.replicaPort());
        String prefix = "sentinel-" + UUID.randomUUID() + "-";
        List<ReactiveDistributedLock> holders = new ArrayList<>();
        List<Long> tokens = new ArrayList<>();
        for (int i = 0; i < LOCKS; i++) {
            ReactiveDistributedLock holder = locks.obtain(prefix + i);
            // with wait-replicas, a replica slow to acknowledge on a loaded machine fails the acquisition, which
            // released the lock again: tried again, as an application would
            assertThat(holder.acquire(Duration.ZERO, Duration.ofMinutes(2))
                    .onFailure(failure -> String.valueOf(failure.getMessage()).contains("acknowledged it within"))
                    .retry().withBackOff(Duration.ofMillis(100)).atMost(5)
                    .await().atMost(TIMEOUT)).isTrue();
            holders.add(holder);
            tokens.add(holder.fencingToken().getAsLong());
        }
        ReactiveDistributedLock waiter = locks.obtain(prefix + 0);
        CompletableFuture<Boolean> waited = waiter.acquire(Duration.ofSeconds(90), Duration.ofMinutes(1))
                .subscribeAsCompletionStage().toCompletableFuture();

        int primary = group.primaryPort();
        group.kill(primary);
        long killed = System.nanoTime();
        long start = System.nanoTime();
        try {
            locks.obtain(prefix + "during").acquireOnce().await().atMost(TIMEOUT);
        } catch (LockException storeDown) {
            // expected while there is no primary
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("an operation without a primary answers or fails within the operation timeout")
                .isLessThan(Duration.ofSeconds(4));

        group.awaitFailover(primary);
        long failoverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
        group.restartAsReplica(primary);

        int survived = 0;
        for (int i = 0; i < LOCKS; i++) {
            ReactiveDistributedLock holder = holders.get(i);
            boolean held = StoreRecovery.await(() -> holder.isAcquired().await().atMost(TIMEOUT), answered -> true,
                    RECOVERY);
            if (held) {
                survived++;
                if (i > 0) {
                    assertThat(locks.obtain(prefix + i).acquireOnce().await().atMost(TIMEOUT))
                            .as("another handle on a lock the new primary holds for its holder").isFalse();
                }
            }
        }
        for (int i = 0; i < LOCKS; i++) {
            holders.get(i).release().await().atMost(TIMEOUT);
        }
        boolean waiterFailed = waited.handle((acquired, failure) -> failure != null).join();
        if (waiterFailed) {
            assertThat(waited).as("a waiter the outage interrupted fails with LockException")
                    .failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
                    .withCauseInstanceOf(LockException.class);
            assertThat(waiter.acquire(Duration.ofSeconds(30), Duration.ofMinutes(1)).await().atMost(TIMEOUT))
                    .as("the waiter tries again after the failover").isTrue();
        } else {
            assertThat(waited.join()).as("the waiter gets the lock once its holder released it").isTrue();
        }
        assertThat(waiter.fencingToken().getAsLong()).as("the waiter's token after the failover")
                .isGreaterThan(tokens.get(0));
        assertThat(waiter.release().await().atMost(TIMEOUT)).isTrue();
        for (int i = 1; i < LOCKS; i++) {
            ReactiveDistributedLock next = locks.obtain(prefix + i);
            assertThat(next.acquireOnce().await().atMost(TIMEOUT)).as("lock %d free again", i).isTrue();
            assertThat(next.fencingToken().getAsLong()).as("lock %d's token after the failover", i)
                    .isGreaterThan(tokens.get(i));
            assertThat(next.release().await().atMost(TIMEOUT)).isTrue();
        }
        System.out.printf("Sentinel failover after SIGKILL of the primary on port %d took %d ms; %d of %d locks "
                + "survived; the waiter %s%n", primary, failoverMillis, survived, LOCKS,
                waiterFailed ? "failed with LockException in the outage, and got the lock when it tried again"
                        : "waited through the outage and got the lock");
        return new Outcome(survived, failoverMillis);
    }
}
