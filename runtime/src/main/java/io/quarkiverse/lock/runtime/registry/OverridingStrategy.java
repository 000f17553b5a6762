package io.quarkiverse.lock.runtime.registry;

import io.quarkiverse.lock.LockType;
import io.smallrye.mutiny.Uni;

/**
 * {@link LockType#OVERRIDING}, for administration: an acquisition takes the lock over at once, whoever holds it (it
 * never waits), and {@code release()} frees the lock whoever holds it.
 */
final class OverridingStrategy implements LockTypeStrategy {

    static final OverridingStrategy INSTANCE = new OverridingStrategy();

    private OverridingStrategy() {
    }

    @Override
    public LockType type() {
        return LockType.OVERRIDING;
    }

    @Override
    public Uni<Hold> acquisition(LockHandle handle, long waitNanos, long leaseMillis) {
        return new AcquireOperation(handle, 0, leaseMillis, true);
    }

    /**
     * Frees the lock whoever holds it; the handle's own hold, if it has one, ends.
     *
     * @return {@code true} if someone held the lock, {@code false} if it was free; fails with the store's failure
     *         mapped by {@link LockHandle#storeFailure}
     */
    @Override
    public Uni<Boolean> release(LockHandle handle) {
        return Uni.createFrom().deferred(() -> {
            LockServices services = handle.services();
            Hold current = handle.dropCurrentHold();
            if (current != null) {
                current.end();
                services.observer().released(handle.metricsName(), handle.getLockKey(), current.owner(), current.heldNanos());
            }
            return services.boundedStore().forceRelease(handle.getLockKey())
                    .onFailure().transform(failure -> handle.storeFailure("release", failure))
                    .onTermination().invoke(() -> services.states().released(handle.getLockKey()));
        });
    }
}
