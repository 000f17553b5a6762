package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * One acquisition a handle holds: the acquisition's own owner id (the store knows the holder by it, so a release,
 * renewal or take-back names exactly this acquisition), its fencing token, lease and start and, when its lease is
 * renewed, the renewal, whose signal ends when the hold ends. A reentrant handle's hold ({@link ReentrantHold}) also
 * counts its entries.
 * <p>
 * The lease is what the holder last asked for (at acquisition, re-entry or {@code extend}); every lease the hold sets
 * in the store also reaches its minimum hold's end ({@link #leaseCovering()}), so an extension to a shorter lease, and
 * the renewals after it, never free the lock before that point, even if the holder dies.
 */
sealed class Hold permits ReentrantHold {

    private static final Uni<Boolean> FALSE = Uni.createFrom().item(Boolean.FALSE);

    private final String owner;
    private final long token;
    private final AtomicLong leaseMillis;
    private final AtomicLong longestLeaseMillis;
    private final long holdAtLeastMillis;
    private final long grantedAtNanos = System.nanoTime();
    private final LeaseRenewal renewal;
    /** Guarded by this: the hold ended, so no extension of a hold without renewal may be sent any more. */
    private boolean closed;

    /**
     * @param holdAtLeastMillis how long after its grant the lock must stay held, as the handle said at acquisition
     */
    Hold(String owner, long token, long leaseMillis, long holdAtLeastMillis, LockHandle renewedBy) {
        this.owner = owner;
        this.token = token;
        this.leaseMillis = new AtomicLong(leaseMillis);
        this.longestLeaseMillis = new AtomicLong(leaseMillis);
        this.holdAtLeastMillis = holdAtLeastMillis;
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
     * @return the lease to set in the store now: the hold's lease, or what remains of its minimum hold if that is
     *         longer; {@link LockStore#NO_EXPIRY} for a hold without end
     */
    long leaseCovering() {
        long lease = leaseMillis.get();
        if (lease == LockStore.NO_EXPIRY) {
            return lease;
        }
        return Math.max(lease, holdAtLeastMillis - heldNanos() / 1_000_000);
    }

    /**
     * @return the longest lease this hold ever had, {@link LockStore#NO_EXPIRY} if it ever had none: how long a lease
     *         the store may still have for it, whichever command last reached it
     */
    long longestLeaseMillis() {
        return longestLeaseMillis.get();
    }

    /** Makes {@code leaseMillis} the hold's lease, before an extension asking for it is sent. */
    void setLease(long leaseMillis) {
        this.leaseMillis.set(leaseMillis);
        longestLeaseMillis.accumulateAndGet(leaseMillis, Hold::longer);
    }

    /**
     * Sets the lease in the store to {@code leaseMillis} from now, or to the end of the minimum hold if that is later,
     * unless the hold ended. A renewed hold extends through its renewal, which sends one lease command at a time; any
     * other sends it at once, under the monitor its end takes, so the release that ends the hold is sent after it. The
     * command is not cancelled with the returned {@link Uni}: once sent, it may change the lease anyway.
     *
     * @return {@code true} if the store set the lease, {@code false} if the hold ended or the store no longer had it
     *         for this acquisition; fails with the store's failure (the lease is then the old one or the new one)
     */
    Uni<Boolean> extend(LockServices services, String key, long leaseMillis) {
        if (renewal != null) {
            return renewal.extend(leaseMillis);
        }
        synchronized (this) {
            if (closed) {
                return FALSE;
            }
            setLease(leaseMillis);
            Uni<Boolean> sent = services.boundedStore().renew(key, owner, leaseCovering()).memoize().indefinitely();
            sent.subscribe().with(ignored -> {
            }, ignored -> {
            });
            return sent;
        }
    }

    /** No extension of this hold is sent after this returns; one being sent is sent before. */
    private synchronized void close() {
        closed = true;
    }

    /**
     * The lease a re-entry sets again in the store: a re-entry asking for a longer lease than the hold has (or for
     * none to end) lengthens the hold's lease, before it is sent, so a concurrent re-entry asking for less cannot land
     * after it and shorten it; a hold whose lease is renewed keeps its lease, since its renewal keeps it as long as it
     * is held.
     *
     * @param askedMillis the lease the re-entry's acquisition asked for, or {@link LockStore#NO_EXPIRY}
     * @return the lease to set in the store, the longer of the hold's and {@code askedMillis}, reaching the end of
     *         the minimum hold ({@link #leaseCovering()})
     */
    long leaseForReentry(long askedMillis) {
        if (renewal == null) {
            leaseMillis.accumulateAndGet(askedMillis, Hold::longer);
            longestLeaseMillis.accumulateAndGet(askedMillis, Hold::longer);
        }
        return leaseCovering();
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
        close();
        if (renewal != null) {
            renewal.end(null);
        }
    }

    /** Ends the hold as lost: stops its renewal and fails its signal with {@code failure}. */
    void lose(LockExpiredException failure) {
        close();
        if (renewal != null) {
            renewal.end(failure);
        }
    }

    /**
     * Stops renewing and extending the lease, leaving the signal as it is (a release under way completes it): an
     * extension being sent is sent before this returns, and none after.
     */
    void stopRenewal() {
        close();
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
