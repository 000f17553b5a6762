package io.quarkiverse.lock.runtime.registry;

import io.quarkiverse.lock.LockType;
import io.smallrye.mutiny.Uni;

/**
 * {@link LockType#REENTRANT}: a handle that holds the lock enters its hold again ({@link ReentryOperation}), any other
 * waits for it; a hold ({@link ReentrantHold}) ends at the release of its last entry.
 */
final class ReentrantStrategy implements LockTypeStrategy {

    static final ReentrantStrategy INSTANCE = new ReentrantStrategy();

    private ReentrantStrategy() {
    }

    @Override
    public LockType type() {
        return LockType.REENTRANT;
    }

    /**
     * Looks at the handle's hold when subscribed, not now: an acquisition built before the handle acquired enters the
     * hold the handle has by then.
     */
    @Override
    public Uni<Hold> acquisition(LockHandle handle, long waitNanos, long leaseMillis) {
        return Uni.createFrom().deferred(() -> {
            Hold current = handle.currentHold();
            return current == null ? new AcquireOperation(handle, waitNanos, leaseMillis, false)
                    : new ReentryOperation(handle, current, waitNanos, leaseMillis);
        });
    }

    @Override
    public Hold newHold(String owner, long token, long leaseMillis, LockHandle renewedBy) {
        return new ReentrantHold(owner, token, leaseMillis, renewedBy);
    }
}
