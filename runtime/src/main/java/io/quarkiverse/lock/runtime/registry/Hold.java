package io.quarkiverse.lock.runtime.registry;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * One acquisition a handle holds: the acquisition's own owner id (the store knows the holder by it, so a release,
 * renewal or take-back names exactly this acquisition), its fencing token, lease and start, and the line of its lease
 * commands ({@link LeaseLine}: renewals, re-entries' renewals and extensions, one at a time), whose signal ends when
 * the hold ends. A reentrant handle's hold ({@link ReentrantHold}) also counts its entries.
 * <p>
 * The lease is the last one the store confirmed (the acquisition's, or a re-entry's or an extension's, once
 * answered); every lease the hold sets in the store also reaches its minimum hold's end ({@link #covering(long)}), so
 * an extension to a shorter lease, and the renewals after it, never free the lock before that point, even if the
 * holder dies.
 */
sealed class Hold permits ReentrantHold {

    private final String owner;
    private final long token;
    /** Written by the line, under its monitor. */
    private volatile long leaseMillis;
    /** Written by the line, under its monitor. */
    private volatile long longestLeaseMillis;
    private final long holdAtLeastMillis;
    private final long grantedAtNanos = System.nanoTime();
    private final LeaseLine line;
    /** What runs when the hold is found lost: the guarded executions under it that have not ended. */
    private final Set<Consumer<Throwable>> lostListeners = ConcurrentHashMap.newKeySet();

    /**
     * @param holdAtLeastMillis how long after its grant the lock must stay held, as the handle said at acquisition
     * @param renewed whether its lease is renewed (the handle's {@code withLeaseRenewal}), also when acquired forever:
     *        an extension then gives it a lease that is renewed
     */
    Hold(String owner, long token, long leaseMillis, long holdAtLeastMillis, LockHandle handle, boolean renewed) {
        this.owner = owner;
        this.token = token;
        this.leaseMillis = leaseMillis;
        this.longestLeaseMillis = leaseMillis;
        this.holdAtLeastMillis = holdAtLeastMillis;
        this.line = new LeaseLine(handle, this, renewed);
        line.endSignal().whenComplete((ignored, lost) -> {
            if (lost != null) {
                for (Consumer<Throwable> listener : lostListeners) {
                    tell(listener, lost);
                }
            }
        });
    }

    String owner() {
        return owner;
    }

    long token() {
        return token;
    }

    /** @return the lease the store last confirmed, {@link LockStore#NO_EXPIRY} for a hold without end */
    long leaseMillis() {
        return leaseMillis;
    }

    /**
     * @return the lease to set in the store now: the hold's lease, or what remains of its minimum hold if that is
     *         longer; {@link LockStore#NO_EXPIRY} for a hold without end
     */
    long leaseCovering() {
        return covering(leaseMillis);
    }

    /**
     * @param lease a lease, or {@link LockStore#NO_EXPIRY}
     * @return the lease to set in the store now for it: {@code lease}, or what remains of the minimum hold if that is
     *         longer
     */
    long covering(long lease) {
        if (lease == LockStore.NO_EXPIRY) {
            return lease;
        }
        return Math.max(lease, holdAtLeastMillis - heldNanos() / 1_000_000);
    }

    /**
     * @return the longest lease this hold ever had or asked the store for, {@link LockStore#NO_EXPIRY} if one had none:
     *         how long a lease the store may still have for it, whichever command last reached it
     */
    long longestLeaseMillis() {
        return longestLeaseMillis;
    }

    /** The line is sending a command that may set {@code lease}: called under the line's monitor. */
    void mayHaveLease(long lease) {
        longestLeaseMillis = longer(longestLeaseMillis, lease);
    }

    /** The store confirmed {@code lease} as the hold's: called under the line's monitor. */
    void adoptLease(long lease) {
        leaseMillis = lease;
        mayHaveLease(lease);
    }

    /**
     * Sets the lease in the store to {@code leaseMillis} from now, or to the end of the minimum hold if that is later,
     * unless the hold ended, once the lease commands asked for before were answered ({@link LeaseLine}), so the
     * release that ends the hold is sent after it. The command is not cancelled with the returned {@link Uni} once
     * sent: it may change the lease anyway, and the hold adopts the lease if the store confirms it.
     *
     * @return {@code true} if the store set the lease, {@code false} if the hold ended, was found lost, or the store
     *         no longer had it for this acquisition; fails with the store's failure (the lease is then the old one or
     *         the new one, and the hold keeps counting on the shorter)
     */
    Uni<Boolean> extend(long leaseMillis) {
        return line.extend(leaseMillis);
    }

    /**
     * Sets the lease in the store again for a re-entry, in the hold's line of lease commands: the longer of the
     * hold's lease and {@code askedMillis}, reaching the end of the minimum hold, so a re-entry never shortens the
     * lease an extension set.
     *
     * @param askedMillis the lease the re-entry's acquisition asked for, or {@link LockStore#NO_EXPIRY}
     * @return {@code true} if the store set it, {@code false} if the store no longer had it for this acquisition or
     *         the hold was found lost; fails with the store's failure
     */
    Uni<Boolean> renewForReentry(long askedMillis) {
        return line.reenter(askedMillis);
    }

    /** The longer of two leases, {@link LockStore#NO_EXPIRY} being the longest. */
    static long longer(long a, long b) {
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

    /** {@code sentNanos}: when the request that granted the hold was sent. */
    void startRenewal(long sentNanos) {
        line.start(sentNanos);
    }

    /**
     * Calls {@code listener} with the {@link LockExpiredException} once if the hold is found lost (by a renewal, or replaced by
     * a later grant to the same
     * handle): at once if it was already. Each guarded execution under the hold registers one and removes it when it
     * ends, so a long hold keeps nothing of the executions that ended under it.
     *
     * @return removes the listener; it is not called after that returns (unless it was being called)
     */
    Runnable whenLost(Consumer<Throwable> listener) {
        lostListeners.add(listener);
        CompletableFuture<Void> signal = line.endSignal();
        if (signal.isCompletedExceptionally()) {
            signal.whenComplete((ignored, lost) -> tell(listener, lost));
        }
        return () -> lostListeners.remove(listener);
    }

    /** @return how many listeners wait for the hold's loss: the guarded executions under it that have not ended */
    int lostListeners() {
        return lostListeners.size();
    }

    /** Calls a registered listener with the loss (a {@link LockExpiredException}), unless removed or called. */
    private void tell(Consumer<Throwable> listener, Throwable lost) {
        if (lostListeners.remove(listener)) {
            listener.accept(lost);
        }
    }

    /** Ends the hold: stops its line of lease commands and completes its signal normally, unless it already ended. */
    void end() {
        line.end(null);
    }

    /** Ends the hold as lost: stops its line of lease commands and fails its signal with {@code failure}. */
    void lose(LockExpiredException failure) {
        line.end(failure);
    }

    /**
     * Stops renewing and extending the lease, leaving the signal as it is (a release under way completes it): a lease
     * command being sent is sent before this returns, and none after.
     */
    void stopRenewal() {
        line.stop();
    }

    long heldNanos() {
        return System.nanoTime() - grantedAtNanos;
    }

    /** Whether the hold was found lost: by a renewal, or replaced by a later grant to the same handle. */
    boolean isLost() {
        return line.endSignal().isCompletedExceptionally();
    }
}
