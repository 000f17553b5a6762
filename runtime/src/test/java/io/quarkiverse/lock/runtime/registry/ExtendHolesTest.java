package io.quarkiverse.lock.runtime.registry;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * Holes around {@code extend} found in review.
 * <p>
 * An extension that shortens the lease and times out may still reach the store: held on the network, retransmitted,
 * or sent on another connection than the renewals that follow it. The line then sends the renewals after it (the
 * timeout let it go on), and the stale extension may land after one of them, setting its short lease from then on.
 * A renewed hold must neither let another handle in while it still believes it holds, nor stop renewing often enough
 * to cover that short lease.
 * <p>
 * A release that keeps the minimum hold ({@code releaseAfter}) and fails is not taken back: the lock stays held until
 * the lease the store has ends, which an extension may have made as long as a hundred years.
 */
class ExtendHolesTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofMillis(200);
    private static final long SHORT = 600;

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.vertxOnly();

    private final HeldBackStore store = new HeldBackStore(new InMemoryLockStore(InstantSource.system()));

    private DefaultLockRegistry registry() {
        return locks.start(store, RegistryFixture.settings(Duration.ofSeconds(10), Duration.ZERO, OPERATION_TIMEOUT),
                new LocalLockStates());
    }

    @Test
    void aShorteningExtensionThatTimedOutAndLandsAfterARenewalNeverLetsAnotherHandleIntoAGuardedSection()
            throws Exception {
        DefaultLockRegistry registry = registry();
        String key = "late-shortening";
        ReactiveDistributedLock lock = registry.obtain(key).withLeaseRenewal(true);
        ReactiveDistributedLock other = registry.obtain(key);
        CompletableFuture<String> work = new CompletableFuture<>();
        CompletableFuture<String> guarded = lock
                .acquireAndExecute(Duration.ZERO, Duration.ofSeconds(6), Uni.createFrom().completionStage(work))
                .subscribeAsCompletionStage();
        waitUntil(() -> lock.fencingToken().isPresent(), "acquired");

        store.holdBackNextRenewalOf(SHORT);
        assertThatThrownBy(() -> await(lock.extend(Duration.ofMillis(SHORT)))).isInstanceOf(LockException.class);
        waitUntil(() -> store.confirmedAfterHeldBack(6000), "a renewal of the old lease confirmed after it");

        store.landHeldBack();
        assertAnotherHandleNeverGetsInWhileTheHoldBelievesItHolds(other, guarded::isDone,
                "the guarded section still runs (sent: " + store.sent + ")");
        work.complete("done");
    }

    @Test
    void aShorteningExtensionOfAForeverHoldThatTimedOutAndLandsAfterARenewalIsNoticed() throws Exception {
        DefaultLockRegistry registry = registry();
        String key = "late-shortening-forever";
        ReactiveDistributedLock lock = registry.obtain(key).withLeaseRenewal(true);
        ReactiveDistributedLock other = registry.obtain(key);
        assertThat(await(lock.acquireForever())).isTrue();
        Hold hold = ((LockHandle) lock).currentHold();

        store.holdBackNextRenewalOf(SHORT);
        assertThatThrownBy(() -> await(lock.extend(Duration.ofMillis(SHORT)))).isInstanceOf(LockException.class);
        waitUntil(() -> store.confirmedAfterHeldBack(LockStore.NO_EXPIRY), "a renewal forever confirmed after it");

        store.landHeldBack();
        assertAnotherHandleNeverGetsInWhileTheHoldBelievesItHolds(other, hold::isLost,
                "the forever hold is not found lost (sent: " + store.sent + ")");
    }

    @Test
    void aFailedReleaseOfAnExtendedHoldWithAMinimumHoldFreesTheLockOnceTheMinimumHoldIsOver() throws Exception {
        DefaultLockRegistry registry = registry();
        String key = "extended-release-failed";
        ReactiveDistributedLock lock = registry.obtain(key).withHoldAtLeast(Duration.ofSeconds(1));
        ReactiveDistributedLock other = registry.obtain(key);
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofMillis(1200)))).isTrue();
        assertThat(await(lock.extend(Duration.ofMinutes(1)))).as("extended (sent: %s, hold %s)", store.sent,
                ((LockHandle) lock).currentHold()).isTrue();

        store.failNextReleaseAfter();
        assertThatThrownBy(() -> await(lock.release())).isInstanceOf(LockException.class);
        assertThat(await(other.acquireOnce())).as("within the minimum hold").isFalse();

        long deadline = System.nanoTime() + Duration.ofSeconds(4).toNanos();
        boolean acquired = false;
        while (!acquired && System.nanoTime() < deadline) {
            Thread.sleep(50);
            acquired = await(other.acquireOnce());
        }
        assertThat(acquired).as("freed after the minimum hold, not at the end of the extended lease, though no "
                + "handle holds it (sent: %s)", store.sent).isTrue();
        assertThat(await(other.release())).isTrue();
    }

    /**
     * A forever re-entry of a renewed hold reaches the store, but its answer comes only after the hold was found lost
     * (its lease ran out unconfirmed): the store has the lock for ever for an acquisition whose handle dropped it. The
     * late confirmation must take it back, or the lock is never free again.
     */
    @Test
    void aForeverReentryConfirmedAfterItsHoldWasFoundLostDoesNotStrandTheLock() throws Exception {
        DefaultLockRegistry registry = locks.start(store,
                RegistryFixture.settings(Duration.ofSeconds(10), Duration.ZERO, Duration.ofSeconds(5)),
                new LocalLockStates());
        String key = "reentry-confirmed-after-lost";
        ReactiveDistributedLock lock = registry.obtain(key, LockType.REENTRANT).withLeaseRenewal(true);
        ReactiveDistributedLock other = registry.obtain(key);
        assertThat(await(lock.acquire(Duration.ZERO, Duration.ofMillis(600)))).isTrue();
        Hold hold = ((LockHandle) lock).currentHold();
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        store.holdAnswerOfNextRenewalOf(LockStore.NO_EXPIRY, answer);

        CompletableFuture<Boolean> reentered = lock.acquireForever().subscribeAsCompletionStage();
        waitUntil(hold::isLost, "found lost: no renewal confirmed while the re-entry's answer is held");
        answer.complete(true);
        reentered.get(5, TimeUnit.SECONDS);

        while (lock.fencingToken().isPresent() && await(lock.release())) {
            // gives back whatever the handle still tracks
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        boolean acquired = false;
        while (!acquired && System.nanoTime() < deadline) {
            acquired = await(other.acquireOnce());
            Thread.sleep(50);
        }
        assertThat(acquired).as("free once no handle tracks it (sent: %s)", store.sent).isTrue();
        await(other.release());
    }

    /**
     * Tries the other handle for longer than the short lease: whenever it gets the lock, the first handle must have
     * been told its hold is lost before.
     */
    private static void assertAnotherHandleNeverGetsInWhileTheHoldBelievesItHolds(ReactiveDistributedLock other,
            java.util.function.BooleanSupplier toldLost, String believes) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofMillis(3 * SHORT).toNanos();
        while (System.nanoTime() < until) {
            if (await(other.acquireOnce())) {
                assertThat(toldLost.getAsBoolean()).as("another handle got the lock while " + believes).isTrue();
                await(other.release());
                return;
            }
            Thread.sleep(20);
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() < deadline).as(what).isTrue();
            Thread.sleep(10);
        }
    }

    /**
     * An in-memory store behind a network: the next renewal setting a given lease is held back (never answered, and
     * not applied until the test lets it land, whatever its caller does meanwhile: a cancellation does not unsend it),
     * and the next {@code releaseAfter} may fail, unsent.
     */
    static final class HeldBackStore extends ForwardingLockStore {

        final List<String> sent = new CopyOnWriteArrayList<>();
        private final List<Long> confirmedAfter = new CopyOnWriteArrayList<>();
        private final AtomicReference<Runnable> heldBack = new AtomicReference<>();
        private volatile long holdBack = -1;
        private volatile boolean held;
        private volatile boolean failReleaseAfter;
        private volatile long holdAnswerOf = -1;
        private final AtomicReference<CompletableFuture<Boolean>> heldAnswer = new AtomicReference<>();

        HeldBackStore(LockStore delegate) {
            super(delegate);
        }

        @Override
        public boolean answersAtOnce() {
            return false;
        }

        void holdBackNextRenewalOf(long leaseMillis) {
            holdBack = leaseMillis;
        }

        boolean confirmedAfterHeldBack(long leaseMillis) {
            return confirmedAfter.contains(leaseMillis);
        }

        void landHeldBack() {
            heldBack.get().run();
            sent.add("landed late");
        }

        /** The next renewal setting {@code leaseMillis} is applied at once, but answered with {@code answer}. */
        void holdAnswerOfNextRenewalOf(long leaseMillis, CompletableFuture<Boolean> answer) {
            heldAnswer.set(answer);
            holdAnswerOf = leaseMillis;
        }

        void failNextReleaseAfter() {
            failReleaseAfter = true;
        }

        @Override
        public Uni<Boolean> releaseAfter(String key, String owner, long leaseMillis) {
            sent.add("releaseAfter " + leaseMillis);
            if (failReleaseAfter) {
                failReleaseAfter = false;
                return Uni.createFrom().failure(new IllegalStateException("connection reset"));
            }
            return delegate.releaseAfter(key, owner, leaseMillis);
        }

        @Override
        public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
            sent.add("renew " + leaseMillis);
            if (holdBack == leaseMillis) {
                holdBack = -1;
                held = true;
                heldBack.set(() -> await(delegate.renew(key, owner, leaseMillis)));
                return Uni.createFrom().nothing();
            }
            if (holdAnswerOf == leaseMillis) {
                holdAnswerOf = -1;
                CompletableFuture<Boolean> later = heldAnswer.get();
                return delegate.renew(key, owner, leaseMillis)
                        .chain(applied -> Uni.createFrom().completionStage(later));
            }
            return delegate.renew(key, owner, leaseMillis).invoke(renewed -> {
                if (held && renewed) {
                    confirmedAfter.add(leaseMillis);
                }
            });
        }
    }
}
