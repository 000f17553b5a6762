package io.quarkiverse.lock.spi;

import io.smallrye.mutiny.Uni;

/**
 * A store whose release is one atomic step that frees the lock, takes the owner out of the line and hands the lock to
 * the first waiter: its release, its take-back and its overriding release are then that same step, for the holder or
 * for anybody.
 */
public abstract class OneStepReleaseStore implements LockStore {

    /**
     * Frees the lock if {@code owner} holds it, or whoever holds it for {@code null}, and takes {@code owner} out of
     * the line, in one atomic step; the store hands the lock to its first waiter.
     *
     * @param key the lock key
     * @param owner the owner id, or {@code null} for whoever holds the lock
     * @return {@code true} if the lock was held (by {@code owner}, when given) and is now freed, {@code false}
     *         otherwise
     */
    protected abstract Uni<Boolean> free(String key, String owner);

    /**
     * {@link #free} for whoever holds the lock.
     *
     * @param key the lock key
     * @return {@code true} if someone held the lock, {@code false} if it was free
     */
    @Override
    public final Uni<Boolean> forceRelease(String key) {
        return free(key, null);
    }

    /**
     * The same step as {@link #release}: an acquisition that holds the lock is never in line, so taking it out of the
     * line and releasing what it holds is one step.
     *
     * @param key the lock key
     * @param owner the acquisition's owner id
     * @return {@code true} if {@code owner} held the lock and it was released, {@code false} otherwise
     */
    @Override
    public final Uni<Boolean> takeBack(String key, String owner) {
        return free(key, owner);
    }

    /**
     * {@link #free} for the holder.
     *
     * @param key the lock key
     * @param owner the owner id
     * @return {@code true} if the lock was held by {@code owner} and is now released, {@code false} otherwise
     */
    @Override
    public final Uni<Boolean> release(String key, String owner) {
        return free(key, owner);
    }
}
