package io.quarkiverse.lock.runtime.migration;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.runtime.registry.LockArguments;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * The records of applied change sets: markers, permanent entries of the lock store, each recording one fact. A marker
 * is kept under an owner no handle has, so no lock acquisition can free it (an overriding release can).
 */
final class MigrationMarkers {

    /** The owner of markers; owner ids of handles are 22 base64url characters, so none is this. */
    private static final String MARKER_OWNER = "marker";

    private final LockStore store;

    /**
     * @param store the store as lock operations reach it, bounded in time by {@code quarkus.lock.operation-timeout}
     */
    MigrationMarkers(LockStore store) {
        this.store = store;
    }

    /**
     * @param key the marker's key, as a lock key
     * @return {@code true} if the marker is in the store; fails with {@link LockException} if the store failed
     * @throws IllegalArgumentException if the key is not a valid lock key
     */
    Uni<Boolean> has(String key) {
        String checked = LockArguments.requireKey(key);
        return store.isHeld(checked, MARKER_OWNER)
                .onFailure().transform(failure -> failure(checked, "read", failure));
    }

    /**
     * Puts the marker {@code key} in the store, for good.
     *
     * @param key the marker's key, as a lock key
     * @return {@code true} if put now, {@code false} if it was there (or a lock held that key); fails with
     *         {@link LockException} if the store failed
     * @throws IllegalArgumentException if the key is not a valid lock key
     */
    Uni<Boolean> put(String key) {
        String checked = LockArguments.requireKey(key);
        return store.tryAcquire(checked, MARKER_OWNER, LockStore.NO_EXPIRY, false)
                .map(AcquireResult::acquired)
                .onFailure().transform(failure -> failure(checked, "write", failure));
    }

    private LockException failure(String key, String operation, Throwable failure) {
        return new LockException(key, "Could not " + operation + " the marker '" + key + "' in the " + store.name()
                + " store: " + failure.getMessage(), failure);
    }
}
