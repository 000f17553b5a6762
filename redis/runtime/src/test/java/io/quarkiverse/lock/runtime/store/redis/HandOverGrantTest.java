package io.quarkiverse.lock.runtime.store.redis;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.RegistryFixture;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.smallrye.mutiny.Uni;

/**
 * A release hands the lock to the first waiter in line and announces it. The waiter takes the announcement as its
 * grant, with no second round trip to Redis, when its own refusals show the hand-over came after all of them; a late
 * announcement, made before a refusal that saw the lock in other hands, is not taken, and the waiter asks Redis.
 * <p>
 * The waiter pauses 2 to 4 s between its attempts, so within a test step no poll of its own can reveal the grant: an
 * attempt counted is one the waiter made because of the announcement.
 */
class HandOverGrantTest {

    private static final long SLOW_POLL_MILLIS = 4_000;

    @RegisterExtension
    final RedisLocks redis = new RedisLocks();

    @RepeatedTest(3)
    void aHandOverMessageIsTheGrantWithoutAskingRedisAgain() throws Exception {
        Line line = waiterInLine("hand-over-grant-", false);
        CountingStore counting = line.counting();
        ReactiveDistributedLock holder = line.holder();
        ReactiveDistributedLock waiter = line.waiter();
        CompletableFuture<Boolean> acquired = line.acquired();
        String key = line.key();

        assertThat(await(holder.release())).isTrue();

        assertThat(acquired.get(SLOW_POLL_MILLIS / 2, TimeUnit.MILLISECONDS))
                .as("granted by the hand-over, before the waiter's next poll").isTrue();
        assertThat(counting.attempts.get()).as("acquire attempts the waiter sent: only the refused one").isEqualTo(1);
        assertThat(waiter.fencingToken().orElseThrow()).as("the token Redis issued with the hand-over")
                .isEqualTo(fencingCounter(key));
        assertThat(await(holder.acquireOnce())).as("another handle, while the waiter holds it").isFalse();
        assertThat(await(waiter.release())).isTrue();
        assertThat(await(holder.acquireOnce())).as("another handle, after the waiter released it").isTrue();
        assertThat(await(holder.release())).isTrue();
    }

    @Test
    void aHandOverAnnouncedLateAfterATakeOverIsNotTakenAsTheGrant() throws Exception {
        Line line = waiterInLine("late-hand-over-", true);
        CountingStore counting = line.counting();
        ReactiveDistributedLock holder = line.holder();
        ReactiveDistributedLock waiter = line.waiter();
        CompletableFuture<Boolean> acquired = line.acquired();
        String key = line.key();
        DefaultLockRegistry direct = line.direct();

        // the release hands the lock to the waiter, but the announcement is held back on its way
        assertThat(await(holder.release())).isTrue();
        counting.awaitHeldHandOvers(1);
        long handedOverToken = fencingCounter(key);

        // an overriding handle takes the lock over; the waiter's next poll is refused and puts it back in line
        ReactiveDistributedLock overriding = direct.obtain(key, LockType.OVERRIDING);
        assertThat(await(overriding.acquire(Duration.ZERO, Duration.ofSeconds(10)))).isTrue();
        long takeOverToken = overriding.fencingToken().orElseThrow();
        assertThat(takeOverToken).isGreaterThan(handedOverToken);
        counting.awaitRefusals(2);

        // now the late announcement arrives: the waiter asks Redis, which refuses, instead of taking it
        counting.deliverHeldHandOvers();
        counting.awaitRefusals(3);
        assertThat(acquired).as("the waiter, while the take-over holds the lock").isNotDone();

        // the take-over's release hands the lock to the waiter under a new token, and that announcement is the grant
        assertThat(await(overriding.release())).isTrue();
        assertThat(acquired.get(SLOW_POLL_MILLIS / 2, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(waiter.fencingToken().orElseThrow()).as("the waiter's token, the second hand-over's")
                .isGreaterThan(takeOverToken).isEqualTo(fencingCounter(key));
        assertThat(counting.attempts.get()).as("attempts: two polls and the one the late announcement caused")
                .isEqualTo(3);
        assertThat(await(waiter.release())).isTrue();
    }

    /**
     * A lock held by one registry's handle, and a waiting acquisition of a slowly polling registry through a
     * {@link CountingStore}, whose first attempt Redis refused: it is in line.
     */
    private record Line(CountingStore counting, DefaultLockRegistry direct, String key, ReactiveDistributedLock holder,
            ReactiveDistributedLock waiter, CompletableFuture<Boolean> acquired) {
    }

    /**
     * @param keyPrefix the start of the lock's key, which ends with a random part
     * @param holdHandOvers whether the counting store holds hand-over announcements back from the start
     */
    private Line waiterInLine(String keyPrefix, boolean holdHandOvers) throws Exception {
        CountingStore counting = new CountingStore(redis.store());
        DefaultLockRegistry waiting = slowPollingRegistry(counting);
        DefaultLockRegistry direct = redis.registry(redis.store(), Duration.ofSeconds(20));
        String key = keyPrefix + UUID.randomUUID();

        ReactiveDistributedLock holder = direct.obtain(key);
        assertThat(await(holder.acquire(Duration.ZERO, Duration.ofSeconds(10)))).isTrue();
        ReactiveDistributedLock waiter = waiting.obtain(key);
        if (holdHandOvers) {
            counting.holdHandOvers();
        }
        CompletableFuture<Boolean> acquired = waiter.acquire(Duration.ofSeconds(20), Duration.ofSeconds(10))
                .subscribeAsCompletionStage();
        counting.awaitRefusals(1);
        return new Line(counting, direct, key, holder, waiter, acquired);
    }

    /** A registry whose head waiter pauses 2 to 4 s between attempts; closed after the test. */
    private DefaultLockRegistry slowPollingRegistry(LockStore store) {
        DefaultLockRegistry registry = new DefaultLockRegistry(store,
                RegistryFixture.settings(Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(20)),
                new BackoffWaitStrategy(redis.vertx(), SLOW_POLL_MILLIS, SLOW_POLL_MILLIS), new LocalLockStates(),
                redis.vertx());
        registry.start();
        redis.closeAfterEach(registry::close);
        ReactiveDistributedLock warmUp = registry.obtain("warm-up");
        assertThat(await(warmUp.acquireOnce())).as("scripts loaded").isTrue();
        assertThat(await(warmUp.release())).isTrue();
        return registry;
    }

    /** The last token Redis issued for the lock, read by an increment of 0 (an integer reply, value kept). */
    private long fencingCounter(String key) throws Exception {
        return Long.parseLong(redis.server().send("INCRBY lock:{" + key + "}:fence 0").substring(1));
    }

    /**
     * The Redis store, counting the acquire attempts of waiting acquisitions and their refusals, and holding back
     * hand-over announcements when asked to.
     */
    private static final class CountingStore extends ForwardingLockStore {

        final AtomicInteger attempts = new AtomicInteger();
        private final AtomicInteger refusals = new AtomicInteger();
        private final List<Runnable> heldHandOvers = new ArrayList<>();
        private boolean holding;

        CountingStore(LockStore delegate) {
            super(delegate);
        }

        @Override
        public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
            Uni<AcquireResult> call = delegate.tryAcquire(key, owner, leaseMillis, waiting);
            if (!waiting) {
                return call;
            }
            attempts.incrementAndGet();
            return call.invoke(result -> {
                if (!result.acquired()) {
                    synchronized (this) {
                        refusals.incrementAndGet();
                        notifyAll();
                    }
                }
            });
        }

        @Override
        public AutoCloseable watchReleases(ReleaseListener listener) {
            return delegate.watchReleases(new ReleaseListener() {
                @Override
                public void released(String key) {
                    listener.released(key);
                }

                @Override
                public void handedOver(String key, String owner, long token) {
                    synchronized (CountingStore.this) {
                        if (holding) {
                            heldHandOvers.add(() -> listener.handedOver(key, owner, token));
                            CountingStore.this.notifyAll();
                            return;
                        }
                    }
                    listener.handedOver(key, owner, token);
                }

                @Override
                public void mayHaveMissed() {
                    listener.mayHaveMissed();
                }
            });
        }

        synchronized void holdHandOvers() {
            holding = true;
        }

        void deliverHeldHandOvers() {
            List<Runnable> held;
            synchronized (this) {
                holding = false;
                held = new ArrayList<>(heldHandOvers);
                heldHandOvers.clear();
            }
            held.forEach(Runnable::run);
        }

        synchronized void awaitRefusals(int count) throws InterruptedException {
            awaitUntil(() -> refusals.get() >= count, "refusals: " + count);
        }

        synchronized void awaitHeldHandOvers(int count) throws InterruptedException {
            awaitUntil(() -> heldHandOvers.size() >= count, "hand-overs held back: " + count);
        }

        private void awaitUntil(BooleanSupplier condition, String what)
                throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (!condition.getAsBoolean()) {
                long left = deadline - System.nanoTime();
                assertThat(left).as("waited for " + what).isPositive();
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
        }
    }
}
