package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.testsupport.proxy.Fault;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.smallrye.mutiny.Uni;

/**
 * A waiter handed the lock counts its lease from no later than Redis does, so it learns the lock is lost before
 * another holder can have it: never from the hand-over message's arrival, which may come long after the release.
 */
class HandOverLeaseTest {

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    /**
     * The waiter's first (refused) attempt is answered 1.5 s late, the hand-over message arrives 1 s after the
     * release, then the waiter's connection goes dead, so its renewals stop.
     */
    @Test
    void aHandOverHeardBeforeItsRefusalIsNotCountedFromTheMessage() throws Exception {
        FaultProxy proxy = redis.faultProxy();
        DefaultLockRegistry waiting = redis.registry(redis.store(proxy.redisUri()), Duration.ofSeconds(5));
        DefaultLockRegistry direct = redis.registry(redis.store(), Duration.ofSeconds(5));
        String key = "hand-over-lease-" + UUID.randomUUID();
        AtomicBoolean replyDelayed = new AtomicBoolean();
        proxy.rule(exchange -> {
            if (exchange.push()) {
                return exchange.reply() != null && exchange.reply().contains("G ") && exchange.reply().contains(key)
                        ? Fault.delay(Duration.ofMillis(1_000))
                        : Fault.pass();
            }
            return exchange.request() != null && exchange.request().contains(key)
                    && replyDelayed.compareAndSet(false, true) ? Fault.delay(Duration.ofMillis(1_500)) : Fault.pass();
        });
        ReactiveDistributedLock holder = direct.obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();

        long t0 = System.nanoTime();
        CompletableFuture<Long> actionStarted = new CompletableFuture<>();
        CompletableFuture<Object> waiterOutcome = new CompletableFuture<>();
        AtomicReference<Long> waiterEnded = new AtomicReference<>();
        waiting.obtain(key).withLeaseRenewal(true).acquireAndExecute(Duration.ofSeconds(10), Duration.ofSeconds(2),
                Uni.createFrom().emitter(emitter -> actionStarted.complete(System.nanoTime())))
                .subscribe().with(waiterOutcome::complete, failure -> {
                    waiterEnded.set(System.nanoTime());
                    waiterOutcome.complete(failure);
                });
        Thread.sleep(100);
        assertThat(await(holder.release())).isTrue();
        long released = System.nanoTime();
        long started = actionStarted.get(5, TimeUnit.SECONDS);
        Thread.sleep(Math.max(0, Duration.ofMillis(1_650).toNanos() - (System.nanoTime() - t0)) / 1_000_000);
        // the waiter's path goes dead: its renewals no longer reach Redis
        proxy.swallow(true);
        ReactiveDistributedLock second = direct.obtain(key);
        assertThat(await(second.acquire(Duration.ofSeconds(10), Duration.ofSeconds(30)))).isTrue();
        long secondGot = System.nanoTime();
        Object outcome = waiterOutcome.get(10, TimeUnit.SECONDS);
        long ended = waiterEnded.get() == null ? Long.MAX_VALUE : waiterEnded.get();

        assertThat(ended).as("the waiter's action must end (%s) before another handle gets the lock: released at %d "
                + "ms, the waiter's action started at %d ms, the other handle got it at %d ms", outcome,
                ms(released - t0), ms(started - t0), ms(secondGot - t0)).isLessThan(secondGot);
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}
