package io.quarkiverse.lock.runtime.wait;

import io.quarkiverse.lock.runtime.local.KeyState;
import io.smallrye.mutiny.Uni;

/**
 * Decides when a waiting acquisition tries again after a failed attempt. The one replaceable piece of waiting:
 * backoff polling now, store notifications (such as Redis pub/sub) on top of it later.
 * <p>
 * A pause never blocks a thread, and cancelling the returned {@link Uni} ends the pause and frees what it holds.
 */
public interface WaitStrategy {

    /**
     * Returns a pause that completes when the next attempt should be made.
     *
     * @param state the local state of the key, where the pause can be woken early by a local release
     * @param failedAttempts how many attempts failed so far, at least 1
     * @param holderRemainingMillis how long the holder's lease still runs, as the store said, or -1 if unknown
     * @param remainingNanos how long the caller is still willing to wait, positive
     * @return a pause completing with {@code null}
     */
    Uni<Void> pause(KeyState state, int failedAttempts, long holderRemainingMillis, long remainingNanos);
}
