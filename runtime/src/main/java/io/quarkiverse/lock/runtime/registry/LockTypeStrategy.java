package io.quarkiverse.lock.runtime.registry;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.runtime.observe.LockTracer.AcquireSpan;
import io.smallrye.mutiny.Uni;

/**
 * What a handle's {@link LockType} decides: how the handle acquires (waits, enters its hold again, or takes the lock
 * over), what its {@code release()} frees, and what kind of {@link Hold} a grant makes. Stateless; the handle keeps
 * its hold and the compare-and-set on it.
 */
enum LockTypeStrategy {

    /** Every acquisition waits for the lock (the holder's own too), and only the holder releases it. */
    SINGLE_ENTRANT(LockType.SINGLE_ENTRANT),

    /**
     * A handle that holds the lock enters its hold again ({@link ReentryOperation}), any other waits for it; a hold
     * ({@link ReentrantHold}) ends at the release of its last entry.
     */
    REENTRANT(LockType.REENTRANT) {

        /** Looks at the handle's hold when subscribed: an acquisition built earlier enters the hold of then. */
        @Override
        Uni<Hold> acquisition(LockHandle handle, long waitNanos, long leaseMillis, AcquireSpan span) {
            return Uni.createFrom().deferred(() -> {
                Hold current = handle.currentHold();
                return current == null ? new AcquireOperation(handle, waitNanos, leaseMillis, false, span)
                        : new ReentryOperation(handle, current, waitNanos, leaseMillis, span);
            });
        }

        @Override
        Hold newHold(String owner, long token, long leaseMillis, long holdAtLeastMillis, LockHandle handle,
                boolean renewed) {
            return new ReentrantHold(owner, token, leaseMillis, holdAtLeastMillis, handle, renewed);
        }
    },

    /**
     * For administration: an acquisition takes the lock over at once, whoever holds it (it never waits), and
     * {@code release()} frees the lock whoever holds it.
     */
    OVERRIDING(LockType.OVERRIDING) {

        @Override
        Uni<Hold> acquisition(LockHandle handle, long waitNanos, long leaseMillis, AcquireSpan span) {
            return new AcquireOperation(handle, 0, leaseMillis, true, span);
        }

        /**
         * Frees the lock whoever holds it; the handle's own hold, if it has one, ends.
         *
         * @return {@code true} if someone held the lock, {@code false} if it was free; fails with the store's failure
         *         mapped by {@link LockHandle#storeFailure}
         */
        @Override
        Uni<Boolean> release(LockHandle handle) {
            return Uni.createFrom().deferred(() -> {
                LockServices services = handle.services();
                Hold current = handle.dropCurrentHold();
                if (current != null) {
                    current.end();
                    services.observer().released(handle.metricsName(), handle.getLockKey(), current.owner(),
                            current.heldNanos());
                }
                return services.boundedStore().forceRelease(handle.getLockKey())
                        .onFailure().transform(failure -> handle.storeFailure("release", failure))
                        .onTermination().invoke(() -> services.states().released(handle.getLockKey()));
            });
        }
    };

    private final LockType type;

    LockTypeStrategy(LockType type) {
        this.type = type;
    }

    static LockTypeStrategy of(LockType type) {
        return switch (type) {
            case SINGLE_ENTRANT -> SINGLE_ENTRANT;
            case REENTRANT -> REENTRANT;
            case OVERRIDING -> OVERRIDING;
        };
    }

    LockType type() {
        return type;
    }

    /**
     * Acquires as the type says: by default, waits for the lock.
     *
     * @param span the acquisition's span, told of its place in line
     * @return emits the hold acquired or entered again, or {@code null} if not acquired; fails with the store's
     *         failure mapped by {@link LockHandle#storeFailure}
     */
    Uni<Hold> acquisition(LockHandle handle, long waitNanos, long leaseMillis, AcquireSpan span) {
        return new AcquireOperation(handle, waitNanos, leaseMillis, false, span);
    }

    /**
     * The handle's {@code release()}: by default, releases one entry of the hold the handle has, if any.
     *
     * @return {@code true} when released; {@code false} when the handle held nothing; fails with
     *         {@link LockExpiredException} when the store no longer had the lock for the handle's acquisition
     */
    Uni<Boolean> release(LockHandle handle) {
        return Uni.createFrom().deferred(() -> {
            Hold current = handle.currentHold();
            return current == null ? Uni.createFrom().item(Boolean.FALSE) : handle.releaseHold(current);
        });
    }

    /** The hold a grant makes: by default one that cannot be entered again; {@code renewed} if its lease is renewed. */
    Hold newHold(String owner, long token, long leaseMillis, long holdAtLeastMillis, LockHandle handle,
            boolean renewed) {
        return new Hold(owner, token, leaseMillis, holdAtLeastMillis, handle, renewed);
    }
}
