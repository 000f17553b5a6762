package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * A registry that closes lets the store end what was sent to it before its connections close: an acquisition cancelled
 * just before the close, whose attempt the store grants only later (a command on the wire), is taken back after that
 * grant, so the lock does not stay held, for the acquisition's whole lease, by an acquisition nobody tracks. The store
 * here refuses whatever reaches it once it is closed, as a closed connection does. And every waiting acquisition of
 * the closing registry fails at once, even one behind another registry's in a shared local line.
 */
class ClosingRegistryTest {

    private static final long DELIVERY_DELAY_MILLIS = 300;
    private static final Duration LEASE = Duration.ofMinutes(10);

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.vertxOnly();

    @Test
    void aTakeBackOnItsWayWhenTheRegistryClosesStillFreesTheLock() throws Exception {
        String key = "closing-" + UUID.randomUUID();
        InMemoryLockStore shared = new InMemoryLockStore(InstantSource.system());
        DefaultLockRegistry closing = RegistryFixture.started(
                new ClosableStore(new LateDeliveringStore(shared, locks.vertx(), DELIVERY_DELAY_MILLIS, true)),
                RegistryFixture.settings(Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(5)),
                new LocalLockStates(), locks.vertx());
        DefaultLockRegistry other = locks.start(shared,
                RegistryFixture.settings(Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(5)),
                new LocalLockStates());

        Cancellable waiting = closing.obtain(key).acquire(Duration.ofSeconds(5), LEASE).subscribe()
                .with(ignored -> {
                }, ignored -> {
                });
        Thread.sleep(50);
        waiting.cancel();
        closing.close();
        // past the late grant, had it been left to come after the close
        Thread.sleep(DELIVERY_DELAY_MILLIS + 200);

        assertThat(RegistryFixture.await(other.obtain(key).acquireOnce()))
                .as("the lock is free once the closed registry's late grant was taken back").isTrue();
    }

    /**
     * Registries over the in-memory store share their local state: the closing registry's acquisition waits in the
     * local line behind another registry's head. Closing tells it at once that it failed, not at its turn or the end
     * of its wait, and leaves the other registry's waiter waiting.
     */
    @Test
    void aWaiterBehindAnotherRegistrysHeadFailsWhenItsRegistryCloses() throws Exception {
        InMemoryLockStore store = new InMemoryLockStore(InstantSource.system());
        LocalLockStates shared = new LocalLockStates();
        var settings = RegistryFixture.settings(Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(5));
        DefaultLockRegistry holding = locks.start(store, settings, shared);
        DefaultLockRegistry staying = locks.start(store, settings, shared);
        DefaultLockRegistry closing = RegistryFixture.started(store, settings, shared, locks.vertx());
        String key = "shared-" + UUID.randomUUID();
        ReactiveDistributedLock holder = holding.obtain(key);
        assertThat(RegistryFixture.await(holder.acquireOnce())).isTrue();
        AtomicReference<Object> head = new AtomicReference<>();
        staying.obtain(key).acquire(Duration.ofSeconds(30), LEASE).subscribe().with(head::set, head::set);
        AtomicReference<Object> behind = new AtomicReference<>();
        closing.obtain(key).acquire(Duration.ofSeconds(30), LEASE).subscribe().with(behind::set, behind::set);
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (shared.get(key).waiting() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(shared.get(key).waiting()).as("both wait in the local line").isEqualTo(2);

        closing.close();

        assertThat(behind.get()).as("the closing registry's waiter was told it failed when close() returned")
                .isInstanceOf(Throwable.class);
        assertThat(shared.get(key).waiting()).as("the other registry's waiter waits on").isEqualTo(1);
        assertThat(head.get()).as("the other registry's waiter").isNull();
        RegistryFixture.await(holder.release());
    }

    /** A store whose operations fail once it is closed, as a closed connection's commands do. */
    private static final class ClosableStore extends ForwardingLockStore {

        private volatile boolean closed;

        ClosableStore(LockStore delegate) {
            super(delegate);
        }

        @Override
        public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
            return closed ? gone() : super.tryAcquire(key, owner, leaseMillis, waiting);
        }

        @Override
        public Uni<Boolean> takeBack(String key, String owner) {
            return closed ? gone() : super.takeBack(key, owner);
        }

        @Override
        public Uni<Boolean> release(String key, String owner) {
            return closed ? gone() : super.release(key, owner);
        }

        @Override
        public void close() {
            closed = true;
            super.close();
        }

        private static <T> Uni<T> gone() {
            return Uni.createFrom().failure(new IllegalStateException("the store is closed"));
        }
    }
}
