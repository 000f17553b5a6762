package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.spi.LockStore;

/**
 * One acquisition a handle holds: the acquisition's own owner id (the store knows the holder by it, so a release,
 * renewal or take-back names exactly this acquisition), its fencing token, lease and start and, when its lease is
 * renewed, the renewal, whose signal ends when the hold ends. A reentrant handle's hold ({@link ReentrantHold}) also
 * counts its entries.
 */
sealed class Hold permits ReentrantHold {

    private final String owner;
    private final long token;
    private final AtomicLong leaseMillis;
    private final long grantedAtNanos = System.nanoTime();
    private final LeaseRenewal renewal;

    Hold(String owner, long token, long leaseMillis, LockHandle renewedBy) {
        this.owner = owner;
        this.token = token;
        this.leaseMillis = new AtomicLong(leaseMillis);
        this.renewal = renewedBy == null ? null : new LeaseRenewal(renewedBy, this);
    }

    String owner() {
        return owner;
    }

    long token() {
        return token;
    }

    long leaseMillis() {
        return leaseMillis.get();
    }

    /**
     * The lease a re-entry sets again in the store: a re-entry asking for a longer lease than the hold has (or for
     * none to end) lengthens the hold's lease, before it is sent, so a concurrent re-entry asking for less cannot land
     * after it and shorten it; a hold whose lease is renewed keeps its lease, since its renewal keeps it as long as it
     * is held.
     *
     * @param askedMillis the lease the re-entry's acquisition asked for, or {@link LockStore#NO_EXPIRY}
     * @return the lease to set in the store, the longer of the hold's and {@code askedMillis}
     */
    long leaseForReentry(long askedMillis) {
        if (renewal != null) {
            return leaseMillis.get();
        }
        return leaseMillis.accumulateAndGet(askedMillis, Hold::longer);
    }

    private static long longer(long a, long b) {
        return a == LockStore.NO_EXPIRY || b == LockStore.NO_EXPIRY ? LockStore.NO_EXPIRY : Math.max(a, b);
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
     * @return {@code true} if the hold was entered again since its grant (a re-entry used it): its last release, even
     *         by an acquisition whose caller never got it, must keep the minimum hold
     */
    boolean wasEnteredAgain() {
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

    /** Only a renewed hold can be found lost while held. */
    boolean isRenewed() {
        return renewal != null;
    }

    /** {@code sentNanos}: when the request that granted the hold was sent. */
    void startRenewal(long sentNanos) {
        if (renewal != null) {
            renewal.start(sentNanos);
        }
    }

    /** Completes when the hold ends, failing with {@link LockExpiredException} if it was lost; null if not renewed. */
    CompletableFuture<Void> endSignal() {
        return renewal == null ? null : renewal.endSignal();
    }

    /** Ends the hold: stops its renewal and completes its signal normally, unless it already ended. */
    void end() {
        if (renewal != null) {
            renewal.end(null);
        }
    }

    /** Ends the hold as lost: stops its renewal and fails its signal with {@code failure}. */
    void lose(LockExpiredException failure) {
        if (renewal != null) {
            renewal.end(failure);
        }
    }

    /** Stops renewing the lease, leaving the signal as it is (a release under way completes it). */
    void stopRenewal() {
        if (renewal != null) {
            renewal.stop();
        }
    }

    long heldNanos() {
        return System.nanoTime() - grantedAtNanos;
    }

    boolean isLost() {
        return renewal != null && renewal.endSignal().isCompletedExceptionally();
    }
}
