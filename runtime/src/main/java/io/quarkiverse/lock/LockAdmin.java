package io.quarkiverse.lock;

import io.smallrye.mutiny.Uni;

/**
 * What the store knows of every instance's locks, for administration: the locks held under the key prefix, page by
 * page, and freeing one whoever holds it. A CDI bean; inject it to expose the locks on an admin endpoint (guard that
 * endpoint: a forced release breaks the exclusion its holder relies on). The Dev UI lists them through it.
 */
public interface LockAdmin {

    /** The most locks one page may list. */
    int MAX_LIMIT = 1000;

    /**
     * Lists one page of the locks held now in the store, by every instance, with their owner, fencing token, lease
     * left and, where the store keeps a line, their waiters. Each call reads a bounded part of the store: a page may
     * list fewer than {@code limit} locks, even none, while {@link LockPage#hasNext()} says more follow.
     *
     * @param cursor {@code null} for the first page, else the {@link LockPage#next()} of the page before, as it was
     *        handed out
     * @param limit the most locks the page may list, from 1 to {@link #MAX_LIMIT}
     * @return the page; fails with a {@link LockException} if the store failed or did not answer in time
     * @throws IllegalArgumentException at once, before anything reaches the store, if {@code limit} is out of range
     *         or {@code cursor} is not one a page of this listing handed out (blank, mistyped, cut short), with a
     *         message that names which
     */
    Uni<LockPage> held(String cursor, int limit);

    /**
     * Frees the lock whoever holds it, as its holder's release would (the next waiter in line gets it). The holder
     * learns it lost the lock at its next renewal or release, which fails; the section it guards may still be running.
     *
     * @param key the lock key
     * @return {@code true} if the lock was held and is now free, {@code false} if it was free already; fails with a
     *         {@link LockException} if the store failed or did not answer in time
     * @throws InvalidLockKeyException at once if the key is {@code null}, blank or too long
     */
    Uni<Boolean> forceRelease(String key);
}
