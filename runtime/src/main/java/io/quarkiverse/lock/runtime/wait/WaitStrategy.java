package io.quarkiverse.lock.runtime.wait;

import io.quarkiverse.lock.runtime.local.Waiter;
import io.smallrye.mutiny.Uni;

/**
 * Decides when a waiting acquisition tries again after a failed attempt. The one replaceable piece of waiting:
 * backoff polling now, store notifications (such as Redis pub/sub) on top of it later.
 * <p>
 * A pause never blocks a thread, and cancelling the returned {@link Uni} ends the pause and frees what it holds.
 */
public interface WaitStrategy {

    /**
     * Returns a pause that completes when the next attempt should be made. The first waiter in line pauses between
     * its attempts; the others pause until their turn comes or their wait runs out.
     *
     * @param waiter the acquisition's place in the local queue, where the pause can be woken early
     * @param failedAttempts how many attempts failed so far (0 for a waiter that has not attempted yet)
     * @param holderRemainingMillis how long the holder's lease still runs, as the store said, or -1 if unknown
     * @param remainingNanos how long the caller is still willing to wait, positive
     * @return a pause completing with {@code null}
     */
    Uni<Void> pause(Waiter waiter, int failedAttempts, long holderRemainingMillis, long remainingNanos);
}
