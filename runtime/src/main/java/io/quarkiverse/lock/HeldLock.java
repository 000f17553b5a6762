package io.quarkiverse.lock;

import java.time.Instant;
import java.util.Objects;

/**
 * One lock held in the store, as a listing ({@link LockPage}) shows it: what the store knows of it when it answered.
 *
 * @param key the lock key, without the store's key prefix
 * @param owner the owner id of the acquisition that holds it
 * @param token the fencing token of that hold
 * @param leaseLeftMillis how long the lease still runs, in milliseconds of the store's clock, positive; or
 *        {@link #UNTIL_RELEASED} for a lock held until it is released
 * @param waiters how many waiters the store keeps in the lock's line (places that lapsed may still count until the
 *        store tidies them); {@link #NO_LINE} for a store that keeps no line (its waiters wait in each instance)
 * @param acquiredAt when the hold began, by the store's clock; {@code null} if the store does not record it
 */
public record HeldLock(String key, String owner, long token, long leaseLeftMillis, int waiters, Instant acquiredAt) {

    /** The {@link #leaseLeftMillis()} of a lock held until it is released. */
    public static final long UNTIL_RELEASED = Long.MAX_VALUE;

    /** The {@link #waiters()} of a lock whose store keeps no line of waiters. */
    public static final int NO_LINE = -1;

    /**
     * @throws NullPointerException if {@code key} or {@code owner} is {@code null}
     * @throws IllegalArgumentException if {@code token} or {@code leaseLeftMillis} is not positive, or {@code waiters}
     *         is below {@link #NO_LINE}
     */
    public HeldLock {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(owner, "owner");
        if (token <= 0) {
            throw new IllegalArgumentException("A fencing token must be positive, but is " + token + " for " + key);
        }
        if (leaseLeftMillis <= 0) {
            throw new IllegalArgumentException("A held lock's lease must still run, but " + key + " has "
                    + leaseLeftMillis + " ms left");
        }
        if (waiters < NO_LINE) {
            throw new IllegalArgumentException("Waiters must be counted from 0 (or be NO_LINE), but are " + waiters);
        }
    }

    /**
     * @return {@code true} if the lock is held until it is released, {@code false} if its lease ends
     */
    public boolean heldUntilReleased() {
        return leaseLeftMillis == UNTIL_RELEASED;
    }
}
