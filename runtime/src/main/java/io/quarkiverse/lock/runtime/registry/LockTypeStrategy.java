package io.quarkiverse.lock.runtime.registry;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockType;
import io.smallrye.mutiny.Uni;

/**
 * What a handle's {@link LockType} decides: how the handle acquires (waits, enters its hold again, or takes the lock
 * over), what its {@code release()} frees, and what kind of {@link Hold} a grant makes. One stateless instance per
 * type; the handle keeps its hold and the compare-and-set on it, and a strategy goes through the handle's methods.
 */
sealed interface LockTypeStrategy permits SingleEntrantStrategy, ReentrantStrategy, OverridingStrategy {

    /**
     * @param type a lock type
     * @return the strategy of that type
     */
    static LockTypeStrategy of(LockType type) {
        return switch (type) {
            case SINGLE_ENTRANT -> SingleEntrantStrategy.INSTANCE;
            case REENTRANT -> ReentrantStrategy.INSTANCE;
            case OVERRIDING -> OverridingStrategy.INSTANCE;
        };
    }

    /**
     * @return the type this strategy implements
     */
    LockType type();

    /**
     * Acquires as the type says.
     *
     * @param handle the acquiring handle
     * @param waitNanos how long to wait, 0 for one attempt
     * @param leaseMillis the lease
     * @return emits the hold acquired or entered again, or {@code null} if not acquired; fails with the store's
     *         failure mapped by {@link LockHandle#storeFailure}
     */
    Uni<Hold> acquisition(LockHandle handle, long waitNanos, long leaseMillis);

    /**
     * The handle's {@code release()}: by default, releases one entry of the hold the handle has, if any.
     *
     * @param handle the releasing handle
     * @return {@code true} when released; {@code false} when the handle held nothing; fails with
     *         {@link LockExpiredException} when the store no longer had the lock for the handle's acquisition
     */
    default Uni<Boolean> release(LockHandle handle) {
        return Uni.createFrom().deferred(() -> {
            Hold current = handle.currentHold();
            return current == null ? Uni.createFrom().item(Boolean.FALSE) : handle.releaseHold(current);
        });
    }

    /**
     * @param owner the owner id of the acquisition the store granted
     * @param token its fencing token
     * @param leaseMillis its lease
     * @param renewedBy the handle that renews its lease, or {@code null} if it is not renewed
     * @return the hold the grant makes: by default one that cannot be entered again
     */
    default Hold newHold(String owner, long token, long leaseMillis, LockHandle renewedBy) {
        return new Hold(owner, token, leaseMillis, renewedBy);
    }
}
