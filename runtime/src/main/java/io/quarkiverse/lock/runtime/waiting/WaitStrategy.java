package io.quarkiverse.lock.runtime.waiting;

import io.smallrye.mutiny.Uni;

/**
 * Decides when a waiting acquisition tries again after a failed attempt: the one replaceable piece of waiting. A pause
 * ends early when its {@link Waiter} is woken: by a release of a handle of this JVM, by the store's release
 * notifications ({@link io.quarkiverse.lock.spi.LockStore#watchReleases}, such as Redis pub/sub), or when the waiter's
 * turn comes. The pause itself is the fallback for a notification that was lost.
 * <p>
 * A pause never blocks a thread, and cancelling the returned {@link Uni} ends the pause and frees what it holds.
 */
public interface WaitStrategy {

    /**
     * Returns a pause that completes when the next attempt should be made. The first waiter in line pauses between
     * its attempts; the others pause until their turn comes or their wait runs out.
     *
     * @param waiter the acquisition's place in the local line, where the pause can be woken early
     * @param failedAttempts how many attempts failed so far (0 for a waiter that has not attempted yet)
     * @param holderRemainingMillis how long the holder's lease still runs, as the store said, or -1 if unknown
     * @param remainingNanos how long the caller is still willing to wait, positive
     * @return a pause completing with {@code null}
     */
    Uni<Void> pause(Waiter waiter, int failedAttempts, long holderRemainingMillis, long remainingNanos);
}
