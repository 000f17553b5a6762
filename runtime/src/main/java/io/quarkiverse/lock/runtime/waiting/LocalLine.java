package io.quarkiverse.lock.runtime.waiting;

import java.util.ArrayDeque;
import java.util.function.LongConsumer;

/**
 * The local line of the acquisitions of this JVM waiting for one lock key, in arrival order. Holding a lock keeps no
 * local state: a key has a line only while someone of this JVM waits for it.
 * <p>
 * Only the head of the line asks the store; the others wait for their turn, so a thousand local waiters on one key
 * cost the store one poller, not a thousand. A release by a local handle wakes the head at once, and the head's
 * leaving (it acquired, gave up, or was cancelled) makes the next waiter the head and wakes it.
 * <p>
 * Instances live in {@link LocalLockStates}, which creates them on first use and evicts them once idle.
 */
public final class LocalLine {

    private final String key;
    private ArrayDeque<Waiter> waiters;
    private long lastUsedNanos;

    LocalLine(String key, long nowNanos) {
        this.key = key;
        this.lastUsedNanos = nowNanos;
    }

    String key() {
        return key;
    }

    synchronized Waiter join(String owner, LongConsumer onHandOver, LocalLockStates states) {
        if (waiters == null) {
            waiters = new ArrayDeque<>(2);
        }
        Waiter waiter = new Waiter(this, owner, onHandOver, states, waiters.size() + 1);
        waiters.addLast(waiter);
        return waiter;
    }

    /**
     * Tells the waiter with this owner id, if it waits here, that a release handed it the lock.
     */
    void handOver(String owner, long token) {
        Waiter receiver = null;
        synchronized (this) {
            if (waiters != null) {
                for (Waiter waiter : waiters) {
                    if (waiter.owner().equals(owner)) {
                        receiver = waiter;
                        break;
                    }
                }
            }
        }
        if (receiver != null) {
            receiver.handOver(token);
        }
    }

    void leave(Waiter waiter, long nowNanos) {
        Waiter next = null;
        synchronized (this) {
            lastUsedNanos = nowNanos;
            if (waiters != null) {
                boolean wasHead = waiters.peekFirst() == waiter;
                waiters.remove(waiter);
                if (wasHead) {
                    next = waiters.peekFirst();
                }
            }
        }
        if (next != null) {
            wake(next);
        }
    }

    synchronized boolean isHead(Waiter waiter) {
        return waiters != null && waiters.peekFirst() == waiter;
    }

    /**
     * Wakes the head of the line, if any, so it attempts now: the lock was just released.
     */
    public void wakeHead() {
        Waiter head;
        synchronized (this) {
            head = waiters == null ? null : waiters.peekFirst();
        }
        if (head != null) {
            wake(head);
        }
    }

    /**
     * Ends the waiter's current pause, or, if it is not paused (it is attempting), makes its next pause end at once,
     * so no wake-up is lost.
     */
    private void wake(Waiter waiter) {
        Wakeup wakeup;
        synchronized (this) {
            wakeup = waiter.parked;
            if (wakeup == null) {
                waiter.wakePending = true;
                return;
            }
            waiter.parked = null;
        }
        wakeup.fire();
    }

    void park(Waiter waiter, Wakeup wakeup) {
        synchronized (this) {
            if (!waiter.wakePending) {
                waiter.parked = wakeup;
                return;
            }
            waiter.wakePending = false;
        }
        wakeup.fire();
    }

    synchronized void unpark(Waiter waiter, Wakeup wakeup) {
        if (waiter.parked == wakeup) {
            waiter.parked = null;
        }
    }

    /**
     * @return how many acquisitions of this JVM wait for the lock
     */
    public synchronized int waiting() {
        return waiters == null ? 0 : waiters.size();
    }

    synchronized boolean isIdle(long nowNanos, long idleNanos) {
        return waiting() == 0 && nowNanos - lastUsedNanos >= idleNanos;
    }

    synchronized boolean isEmpty() {
        return waiting() == 0;
    }
}
