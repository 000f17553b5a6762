package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * A re-entry whose check with the store is still on its way when the handle's last release shortens the lease to
 * what remains of the minimum hold ({@code withHoldAtLeast}). Were the re-entry to ask the store before entering the
 * hold, its renewal would land after the shortening and restore the full lease of a hold nobody tracks any more: the
 * lock would stay held for that lease (20 s here) instead of one second after its acquisition. Entering first, the
 * re-entry keeps the release from being the last one.
 */
class ReentryRenewalAfterLastReleaseTest {

    private final HeldBackRenewal store = new HeldBackRenewal();

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory().decorating((vertx, inMemory) -> store.over(inMemory));

    @Test
    void aRenewalOnItsWayCannotRestoreTheLeaseTheLastReleaseShortened() throws Exception {
        String key = "reentry-renewal-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.REENTRANT).withLeaseRenewal(false)
                .withHoldAtLeast(Duration.ofSeconds(1));
        assertThat(RegistryFixture.await(lock.acquire(Duration.ZERO, Duration.ofSeconds(20)))).isTrue();

        store.holdBackNextRenewal();
        CompletableFuture<Boolean> reentry = lock.acquireOnce().subscribeAsCompletionStage();
        assertThat(RegistryFixture.await(lock.release())).as("the first entry's release").isTrue();
        store.letRenewalGo();
        boolean reentered = reentry.get(5, TimeUnit.SECONDS);
        boolean lastReleased = RegistryFixture.await(lock.release());

        RegistryFixture.assertAcquirableSoon(locks.registry(), key);
        assertThat(reentered).as("the re-entry entered the hold the release did not end").isTrue();
        assertThat(lastReleased).as("the last entry's release").isTrue();
    }

    /** Holds back the next renewal asked for, until let go; every other operation goes through at once. */
    private static final class HeldBackRenewal {

        private final AtomicBoolean armed = new AtomicBoolean();
        private final CompletableFuture<Void> go = new CompletableFuture<>();

        void holdBackNextRenewal() {
            armed.set(true);
        }

        void letRenewalGo() {
            go.complete(null);
        }

        LockStore over(LockStore delegate) {
            return new ForwardingLockStore(delegate) {
                @Override
                public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
                    if (armed.compareAndSet(true, false)) {
                        return Uni.createFrom().completionStage(go)
                                .flatMap(ignored -> delegate.renew(key, owner, leaseMillis));
                    }
                    return delegate.renew(key, owner, leaseMillis);
                }
            };
        }
    }
}
