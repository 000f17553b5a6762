package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;
import io.vertx.redis.client.Redis;

/**
 * A waiter's attempt can be on its way to Redis when a release hands it the lock: the hand-over message may arrive
 * first. If the waiter took the message as its grant at once, the attempt in flight still reached Redis afterwards,
 * for an acquisition already granted. When an overriding take-over (or the lease's end) came in between, that stale
 * attempt acquired the lock again (or put the waiter back in line, to be handed the lock again) under a new token
 * that the handle never learnt: the handle then kept its old token, and its renewals and re-entries, which compare
 * the owner id only, kept confirming it, so a re-entry after the take-over ran with a token below the take-over's
 * (the randomized fault test's TOKEN_ORDER violation).
 */
class StaleAttemptAfterHandOverTest {

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    @Test
    void anAttemptInFlightWhenTheLockIsHandedOverNeverLeavesTheHandleAStaleToken() throws Exception {
        GatedStore gated = new GatedStore(redis.store());
        DefaultLockRegistry waiting = redis.registry(gated, Duration.ofSeconds(20));
        DefaultLockRegistry direct = redis.registry(redis.store(), Duration.ofSeconds(20));
        String key = "stale-attempt-" + UUID.randomUUID();

        ReactiveDistributedLock holder = direct.obtain(key);
        assertThat(await(holder.acquire(Duration.ZERO, Duration.ofSeconds(10)))).isTrue();

        // the waiter's first attempt is refused and puts it in line; its second is held back on its way to Redis
        ReactiveDistributedLock waiter = waiting.obtain(key, LockType.REENTRANT);
        gated.holdAttemptsAfter(1);
        CompletableFuture<Boolean> acquired = waiter.acquire(Duration.ofSeconds(10), Duration.ofSeconds(10))
                .subscribeAsCompletionStage();
        assertThat(gated.held.await(10, TimeUnit.SECONDS)).as("the waiter's second attempt is on its way").isTrue();

        // the release hands the lock to the waiter; its instance hears the hand-over message
        assertThat(await(holder.release())).isTrue();
        Thread.sleep(300);

        // an overriding handle takes the lock over, and frees it
        ReactiveDistributedLock overriding = direct.obtain(key, LockType.OVERRIDING);
        assertThat(await(overriding.acquire(Duration.ZERO, Duration.ofSeconds(10)))).isTrue();
        long takeOverToken = overriding.fencingToken().orElseThrow();
        assertThat(await(overriding.release())).isTrue();

        // only now does the waiter's attempt reach Redis
        gated.open();
        assertThat(acquired.get(10, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(300);

        // the waiter's acquisition holds the lock in the store
        long handleToken = waiter.fencingToken().orElse(-1);
        // a re-entry after the take-over was reported
        boolean reentered = await(waiter.acquire(Duration.ZERO, Duration.ofSeconds(10))
                .onFailure().recoverWithItem(false));
        long reentryToken = waiter.fencingToken().orElse(-1);
        assertThat(handleToken).as("the hold's token, reported after the take-over (re-entry %s with token %d)",
                reentered, reentryToken).isGreaterThan(takeOverToken);
        if (reentered) {
            assertThat(reentryToken).as("a re-entry asked for after the take-over has a token above it")
                    .isGreaterThan(takeOverToken);
        }
        await(waiter.release().onFailure().recoverWithItem(false));
        await(waiter.release().onFailure().recoverWithItem(false));
    }

    /** A store whose acquire attempts, past a number of them, wait at a gate before they are sent. */
    private static final class GatedStore extends ForwardingLockStore {

        private final CompletableFuture<Void> gate = new CompletableFuture<>();
        private final AtomicInteger attempts = new AtomicInteger();
        private volatile int passing = Integer.MAX_VALUE;
        final CountDownLatch held = new CountDownLatch(1);

        GatedStore(LockStore delegate) {
            super(delegate);
        }

        void holdAttemptsAfter(int count) {
            attempts.set(0);
            passing = count;
        }

        void open() {
            gate.complete(null);
        }

        @Override
        public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
            Uni<AcquireResult> call = delegate.tryAcquire(key, owner, leaseMillis, waiting);
            return Uni.createFrom().deferred(() -> {
                if (attempts.incrementAndGet() <= passing) {
                    return call;
                }
                held.countDown();
                return Uni.createFrom().completionStage(gate).flatMap(ignored -> call);
            });
        }
    }
}
