package io.quarkiverse.lock.runtime.local;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link KeyState} of every key this JVM holds, waits for, or used recently.
 * <p>
 * Every change that puts a state in use (a hold, a wait) goes through {@link ConcurrentHashMap#compute} on its key,
 * and eviction removes a state through {@link ConcurrentHashMap#computeIfPresent} only if it is idle at that moment,
 * so the evictor never drops state that is held or waited on, and never races a new user of it.
 */
public final class LocalLockStates {

    private final ConcurrentHashMap<String, KeyState> states = new ConcurrentHashMap<>();

    /**
     * Puts a waiting acquisition in the local queue of {@code key}.
     *
     * @param key the lock key
     * @return the acquisition's place in the queue, to pass to {@link #leave(Waiter)}
     */
    public Waiter join(String key) {
        Waiter[] joined = new Waiter[1];
        states.compute(key, (k, state) -> {
            KeyState s = state == null ? new KeyState(System.nanoTime()) : state;
            joined[0] = s.join();
            return s;
        });
        return joined[0];
    }

    /**
     * Takes a waiting acquisition out of its queue (it acquired, gave up, failed or was cancelled); if it was first
     * in line, the next one becomes first and is woken.
     *
     * @param waiter the place {@link #join(String)} returned
     */
    public void leave(Waiter waiter) {
        waiter.leave(System.nanoTime());
    }

    /**
     * Records that a handle of this JVM acquired {@code key}.
     *
     * @param key the lock key
     * @param leaseMillis the lease of the hold
     */
    public void onAcquired(String key, long leaseMillis) {
        long leaseEnd = System.nanoTime() + leaseMillis * 1_000_000L;
        states.compute(key, (k, state) -> {
            KeyState s = state == null ? new KeyState(System.nanoTime()) : state;
            s.onAcquired(leaseEnd);
            return s;
        });
    }

    /**
     * Records that a handle of this JVM released {@code key}, and wakes the first local waiter in line.
     *
     * @param key the lock key
     */
    public void onReleased(String key) {
        KeyState state = states.get(key);
        if (state != null) {
            state.onReleased(System.nanoTime());
            state.wakeHead();
        }
    }

    /**
     * Wakes the first local waiter of {@code key}, if any: the store says another instance released it.
     *
     * @param key the lock key
     */
    public void onRemoteRelease(String key) {
        KeyState state = states.get(key);
        if (state != null) {
            state.wakeHead();
        }
    }

    /**
     * Wakes the first local waiter of every key: release notifications may have been missed (the notification
     * channel was down), so every head should look again now.
     */
    public void wakeAllHeads() {
        for (KeyState state : states.values()) {
            state.wakeHead();
        }
    }

    /**
     * @param key the lock key
     * @return the key's state, or {@code null} if this JVM keeps none
     */
    public KeyState get(String key) {
        return states.get(key);
    }

    /**
     * Drops the state of every key that has been idle (not held, not waited on, not used) for {@code idleNanos}.
     *
     * @param nowNanos the current {@link System#nanoTime()}
     * @param idleNanos how long a state must have been idle
     * @return how many states were dropped
     */
    public int evictIdle(long nowNanos, long idleNanos) {
        int evicted = 0;
        for (String key : states.keySet()) {
            boolean[] dropped = new boolean[1];
            states.computeIfPresent(key, (k, state) -> {
                dropped[0] = state.isIdle(nowNanos, idleNanos);
                return dropped[0] ? null : state;
            });
            if (dropped[0]) {
                evicted++;
            }
        }
        return evicted;
    }

    /**
     * @return how many keys this JVM keeps state for
     */
    public int size() {
        return states.size();
    }
}
