package io.quarkiverse.lock.runtime.registry;

import io.quarkiverse.lock.LockAdmin;
import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * The {@link LockAdmin} over the registry's store, each operation bounded in time as every lock operation is; a store
 * failure becomes a {@link LockException} naming the operation and the store.
 */
public final class StoreLockAdmin implements LockAdmin {

    private final LockStore store;

    /**
     * @param registry the registry whose store is administered
     */
    public StoreLockAdmin(DefaultLockRegistry registry) {
        this.store = registry.boundedStore();
    }

    @Override
    public Uni<LockPage> held(String cursor, int limit) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be from 1 to " + MAX_LIMIT + ", but is " + limit);
        }
        if (cursor != null && cursor.isBlank()) {
            throw new IllegalArgumentException("cursor must be null (for the first page) or the next cursor of a page,"
                    + " but is blank");
        }
        return store.listHeld(cursor, limit).onFailure(failure -> !(failure instanceof IllegalArgumentException))
                .transform(failure -> new LockException(null, "Could not list the held locks of the " + store.name()
                        + " store: " + failure.getMessage(), failure));
    }

    @Override
    public Uni<Boolean> forceRelease(String key) {
        LockArguments.requireKey(key);
        return store.forceRelease(key).onFailure().transform(failure -> new LockException(key, "Could not force the "
                + "release of lock '" + key + "' in the " + store.name() + " store: " + failure.getMessage(), failure));
    }
}
