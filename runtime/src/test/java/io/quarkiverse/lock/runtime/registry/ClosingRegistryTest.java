package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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
 * here refuses whatever reaches it once it is closed, as a closed connection does.
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
