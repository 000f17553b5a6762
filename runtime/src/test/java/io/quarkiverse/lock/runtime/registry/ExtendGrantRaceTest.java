package io.quarkiverse.lock.runtime.registry;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * A grant makes the hold visible to the handle's other callers before its line of lease commands starts: an extension
 * asked for from another thread in that window is sent first, and the start must not then count on the grant's longer
 * lease instead of the shorter one the extension may have set.
 * <p>
 * The window is forced through the public API: the handle's earlier hold, which an operator freed in the store, is
 * found lost when the new grant replaces it, and the action guarded by it is cancelled on the granting thread, between
 * the two; its cancellation extends the handle's lock, as any other thread of the application might.
 */
class ExtendGrantRaceTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofMillis(200);
    private static final long SHORT = 600;
    private static final long LANDS_AFTER = 150;

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.vertxOnly();

    private final NetworkStore store = new NetworkStore(new InMemoryLockStore(InstantSource.system()));

    @Test
    void anExtensionSentBeforeTheGrantsLineStartedKeepsItsShorterLeaseCountedOn() throws Exception {
        extensionBeforeTheLineStarted(false);
    }

    /** The grant of a hold forever would even drop the extension's lease end: the hold would believe it for ever. */
    @Test
    void anExtensionSentBeforeTheLineOfAForeverGrantStartedKeepsItsLeaseCountedOn() throws Exception {
        extensionBeforeTheLineStarted(true);
    }

    private void extensionBeforeTheLineStarted(boolean forever) throws Exception {
        DefaultLockRegistry registry = locks.start(store,
                RegistryFixture.settings(Duration.ofSeconds(10), Duration.ZERO, OPERATION_TIMEOUT),
                new LocalLockStates());
        String key = "extended-before-start-" + forever;
        ReactiveDistributedLock lock = registry.obtain(key).withLeaseRenewal(true);
        ReactiveDistributedLock other = registry.obtain(key);
        AtomicReference<Hold> extendedHold = new AtomicReference<>();
        Uni<String> action = Uni.createFrom().<String> emitter(emitter -> {
        }).onCancellation().invoke(() -> {
            // On the granting thread, after the new hold is visible and before its line started.
            extendedHold.set(((LockHandle) lock).currentHold());
            lock.extend(Duration.ofMillis(SHORT)).subscribe().with(ignored -> {
            }, ignored -> {
            });
        });
        CompletableFuture<String> guarded = lock.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(6), action)
                .subscribeAsCompletionStage();
        waitUntil(() -> lock.fencingToken().isPresent(), "acquired");

        // An operator frees the lock; the handle acquires again before its renewal notices.
        assertThat(await(store.delegate().forceRelease(key))).isTrue();
        store.delayNextRenewalOfThenFailRenewals(SHORT);
        assertThat(await(forever ? lock.acquireForever() : lock.acquireOnce())).isTrue();
        Hold hold = ((LockHandle) lock).currentHold();
        assertThat(extendedHold.get()).as("the extension was asked for on the new hold (sent: %s)", store.sent)
                .isSameAs(hold);
        guarded.handle((ignored, failure) -> null).toCompletableFuture().get(5, TimeUnit.SECONDS);

        long until = System.nanoTime() + Duration.ofMillis(4 * SHORT).toNanos();
        boolean otherGotIn = false;
        while (!otherGotIn && System.nanoTime() < until) {
            otherGotIn = await(other.acquireOnce());
            if (otherGotIn) {
                assertThat(hold.isLost()).as("another handle got the lock while the hold still believes it holds it "
                        + "(sent: %s)", store.sent).isTrue();
            }
            Thread.sleep(20);
        }
        assertThat(otherGotIn).as("the store's lease ran out (sent: %s)", store.sent).isTrue();
        await(other.release());
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
     * An in-memory store behind a network: the next renewal setting a given lease lands late and its answer is lost;
     * the renewals after it find the store unreachable.
     */
    static final class NetworkStore extends ForwardingLockStore {

        final List<String> sent = new CopyOnWriteArrayList<>();
        private volatile long delayed = -1;
        private volatile boolean unreachable;

        NetworkStore(LockStore delegate) {
            super(delegate);
        }

        LockStore delegate() {
            return delegate;
        }

        @Override
        public boolean answersAtOnce() {
            return false;
        }

        void delayNextRenewalOfThenFailRenewals(long leaseMillis) {
            delayed = leaseMillis;
        }

        @Override
        public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
            sent.add("renew " + leaseMillis);
            if (unreachable) {
                return Uni.createFrom().failure(new IllegalStateException("unreachable"));
            }
            if (delayed == leaseMillis) {
                delayed = -1;
                unreachable = true;
                CompletableFuture.delayedExecutor(LANDS_AFTER, TimeUnit.MILLISECONDS).execute(() -> {
                    await(delegate.renew(key, owner, leaseMillis));
                    sent.add("landed " + leaseMillis);
                });
                return Uni.createFrom().nothing();
            }
            return delegate.renew(key, owner, leaseMillis);
        }
    }
}
