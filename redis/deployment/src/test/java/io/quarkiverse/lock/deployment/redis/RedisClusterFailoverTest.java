package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.tck.StoreRecovery;
import io.quarkiverse.lock.testsupport.RedisCluster;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A primary of the cluster is killed while it holds a lock, and its replica takes over. What is guaranteed: while
 * the slot has no primary, operations fail with {@code LockException} within the operation timeout (no hang); once
 * the replica took over, the locks work again without a restart; and the fencing token of the next acquisition is
 * above the one issued before the failover. What is not: the lock itself survives only if it reached the replica
 * before the primary died (replication is asynchronous).
 */
class RedisClusterFailoverTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RECOVERY = Duration.ofSeconds(20);

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on(RedisCluster.ownedBy(RedisClusterFailoverTest.class).hosts())
            .overrideConfigKey("quarkus.lock.operation-timeout", "1s")
            .overrideConfigKey("quarkus.redis.client-type", "cluster")
            .overrideConfigKey("quarkus.redis.max-pool-size", "32")
            .overrideConfigKey("quarkus.redis.max-pool-waiting", "256");

    @Inject
    LockRegistry locks;

    @Test
    void afterAFailoverTheLocksWorkAgainAndTokensDoNotGoBackwards() throws InterruptedException {
        RedisCluster cluster = RedisCluster.ownedBy(RedisClusterFailoverTest.class);
        String key = "failover-" + UUID.randomUUID();
        ReactiveDistributedLock holder = locks.obtain(key);
        assertThat(holder.acquire(Duration.ZERO, Duration.ofMinutes(1)).await().atMost(TIMEOUT)).isTrue();
        long tokenBefore = holder.fencingToken().getAsLong();
        Thread.sleep(200);

        int primary = cluster.primaryOf("lock:{" + key + "}");
        cluster.kill(primary);
        long killed = System.nanoTime();
        long start = System.nanoTime();
        boolean failedFast;
        try {
            locks.obtain(key).acquireOnce().await().atMost(TIMEOUT);
            failedFast = true;
        } catch (LockException storeDown) {
            failedFast = Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(3)) < 0;
        }
        assertThat(failedFast).as("an operation on the dead primary's slot answers or fails within the timeout")
                .isTrue();

        cluster.awaitFailover(primary);
        Duration failover = Duration.ofNanos(System.nanoTime() - killed);

        boolean survived = StoreRecovery.await(() -> holder.isAcquired().await().atMost(TIMEOUT), answered -> true,
                RECOVERY);
        if (survived) {
            assertThat(holder.release().await().atMost(TIMEOUT)).isTrue();
        }
        ReactiveDistributedLock next = locks.obtain(key);
        assertThat(StoreRecovery.await(() -> next.acquireOnce().await().atMost(TIMEOUT), answered -> true,
                RECOVERY)).isTrue();
        assertThat(next.fencingToken().getAsLong()).as("tokens do not go backwards across the failover")
                .isGreaterThan(tokenBefore);
        assertThat(next.release().await().atMost(TIMEOUT)).isTrue();
        System.out.printf("Failover of the primary on port %d took %d ms; the lock held before it %s%n", primary,
                failover.toMillis(), survived ? "survived (it had reached the replica)" : "was lost");
    }
}
