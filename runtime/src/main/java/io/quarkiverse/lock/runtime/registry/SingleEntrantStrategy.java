package io.quarkiverse.lock.runtime.registry;

import io.quarkiverse.lock.LockType;
import io.smallrye.mutiny.Uni;

/**
 * {@link LockType#SINGLE_ENTRANT}: every acquisition waits for the lock (the holder's own too), and only the holder
 * releases it.
 */
final class SingleEntrantStrategy implements LockTypeStrategy {

    static final SingleEntrantStrategy INSTANCE = new SingleEntrantStrategy();

    private SingleEntrantStrategy() {
    }

    @Override
    public LockType type() {
        return LockType.SINGLE_ENTRANT;
    }

    @Override
    public Uni<Hold> acquisition(LockHandle handle, long waitNanos, long leaseMillis) {
        return new AcquireOperation(handle, waitNanos, leaseMillis, false);
    }
}
