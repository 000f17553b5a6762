package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CompletableFuture;

import io.quarkiverse.lock.LockExpiredException;

/**
 * One acquisition a handle holds: the acquisition's own owner id (the store knows the holder by it, so a release,
 * renewal or take-back names exactly this acquisition), its fencing token, lease and start and, when its lease is
 * renewed, the renewal (which carries the signal that ends when the hold ends, failing with
 * {@link LockExpiredException} if a renewal found the lock lost). A reentrant handle's hold ({@link ReentrantHold})
 * also counts its entries.
 */
sealed class Hold permits ReentrantHold {

    final String owner;
    final long token;
    final long leaseMillis;
    final long grantedAtNanos = System.nanoTime();
    final LeaseRenewal renewal;

    Hold(String owner, long token, long leaseMillis, LockHandle renewedBy) {
        this.owner = owner;
        this.token = token;
        this.leaseMillis = leaseMillis;
        this.renewal = renewedBy == null ? null : new LeaseRenewal(renewedBy, this);
    }

    /**
     * Enters the hold once more (a reentrant acquisition).
     *
     * @return {@code true} if entered; {@code false} if the hold cannot be entered again (single entry, or left for
     *         good meanwhile)
     */
    boolean enter() {
        return false;
    }

    /**
     * Leaves one entry of the hold.
     *
     * @return {@code true} if entries remain, so the lock stays held; {@code false} if this was the last
     */
    boolean leaveOneEntry() {
        return false;
    }

    /**
     * @return the signal that ends with the hold, failing if the lock was found lost; {@code null} without renewal
     */
    CompletableFuture<Void> end() {
        return renewal == null ? null : renewal.end;
    }

    /**
     * Ends the hold: stops its renewal and completes its signal normally, unless it already ended.
     */
    void ended() {
        if (renewal != null) {
            renewal.stop();
            renewal.end.complete(null);
        }
    }

    /**
     * Records that the holder lost the lock: stops the renewal and fails the signal.
     */
    void lost(LockExpiredException failure) {
        if (renewal != null) {
            renewal.stop();
            renewal.end.completeExceptionally(failure);
        }
    }

    void stopRenewal() {
        if (renewal != null) {
            renewal.stop();
        }
    }

    long heldNanos() {
        return System.nanoTime() - grantedAtNanos;
    }

    boolean isLost() {
        return renewal != null && renewal.end.isCompletedExceptionally();
    }
}
