package io.quarkiverse.lock.runtime.local;

import java.util.ArrayDeque;

/**
 * What this JVM knows about one lock key: how many of its handles hold it and until when, how many wait for it, and
 * the waiters parked between two attempts, so that a local release wakes the next one at once instead of letting it
 * sleep out its backoff.
 * <p>
 * Instances live in {@link LocalLockStates}, which creates them on first use and evicts them once idle.
 */
public final class KeyState {

    private int holders;
    private long heldUntilNanos;
    private int waiting;
    private ArrayDeque<Wakeup> parked;
    private long lastUsedNanos;

    KeyState(long nowNanos) {
        this.lastUsedNanos = nowNanos;
    }

    synchronized void enterWait() {
        waiting++;
    }

    synchronized void exitWait(long nowNanos) {
        waiting--;
        lastUsedNanos = nowNanos;
    }

    synchronized void onAcquired(long leaseEndNanos) {
        holders++;
        if (holders == 1 || leaseEndNanos - heldUntilNanos > 0) {
            heldUntilNanos = leaseEndNanos;
        }
    }

    synchronized void onReleased(long nowNanos) {
        if (holders > 0) {
            holders--;
        }
        lastUsedNanos = nowNanos;
    }

    /**
     * Parks a waiter until its next attempt; {@link #wakeNext()} may wake it early.
     *
     * @param wakeup the waiter's wake-up
     */
    public synchronized void park(Wakeup wakeup) {
        if (parked == null) {
            parked = new ArrayDeque<>(2);
        }
        parked.addLast(wakeup);
    }

    /**
     * Removes a parked waiter, once it woke up or gave up.
     *
     * @param wakeup the waiter's wake-up
     */
    public synchronized void unpark(Wakeup wakeup) {
        if (parked != null) {
            parked.remove(wakeup);
        }
    }

    /**
     * Wakes the waiter parked the longest, if any, so it attempts again now.
     *
     * @return {@code true} if a waiter was woken
     */
    public boolean wakeNext() {
        while (true) {
            Wakeup next;
            synchronized (this) {
                next = parked == null ? null : parked.pollFirst();
            }
            if (next == null) {
                return false;
            }
            if (next.fire()) {
                return true;
            }
        }
    }

    /**
     * @return how many handles of this JVM hold the lock, as far as this JVM knows
     */
    public synchronized int holders() {
        return holders;
    }

    /**
     * @return how many acquisitions of this JVM wait for the lock
     */
    public synchronized int waiting() {
        return waiting;
    }

    synchronized boolean isIdle(long nowNanos, long idleNanos) {
        boolean held = holders > 0 && heldUntilNanos - nowNanos > 0;
        return !held && waiting == 0 && nowNanos - lastUsedNanos >= idleNanos;
    }
}
