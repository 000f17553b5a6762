package io.quarkiverse.lock.runtime.waiting;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;

import io.quarkiverse.lock.spi.ReleaseListener;

/**
 * The {@link KeyState} of every key this JVM waits for.
 * <p>
 * Joining a line goes through {@link ConcurrentHashMap#compute} on its key; the last waiter to leave removes the
 * state through {@link ConcurrentHashMap#computeIfPresent} only if the line is empty at that moment, and so does the
 * evictor for a state that is idle. So state that is waited on is never dropped, and a new waiter never joins a
 * dropped state.
 */
public final class LocalLockStates implements ReleaseListener {

    private final ConcurrentHashMap<String, KeyState> states = new ConcurrentHashMap<>();
    private volatile boolean everyReleaseAnnounced;

    /**
     * Puts a waiting acquisition in the local queue of {@code key}.
     *
     * @param key the lock key
     * @param owner the waiting handle's owner id
     * @param onHandOver called with the fencing token if a release hands the lock straight to this waiter
     * @return the acquisition's place in the queue, to pass to {@link #leave(Waiter)}
     */
    public Waiter join(String key, String owner, LongConsumer onHandOver) {
        Waiter[] joined = new Waiter[1];
        states.compute(key, (k, state) -> {
            KeyState s = state == null ? new KeyState(k, System.nanoTime()) : state;
            joined[0] = s.join(owner, onHandOver, this);
            return s;
        });
        return joined[0];
    }

    /**
     * Takes a waiting acquisition out of its queue (it acquired, gave up, failed or was cancelled); if it was first
     * in line, the next one becomes first and is woken.
     *
     * @param waiter the place {@link #join(String, String, LongConsumer)} returned
     */
    public void leave(Waiter waiter) {
        KeyState state = waiter.leave(System.nanoTime());
        states.computeIfPresent(state.key, (k, current) -> current == state && current.isEmpty() ? null : current);
    }

    /**
     * Wakes the first local waiter of {@code key}, if any: a handle of this JVM released it.
     *
     * @param key the lock key
     */
    public void onReleased(String key) {
        KeyState state = states.get(key);
        if (state != null) {
            state.wakeHead();
        }
    }

    /**
     * Wakes the first local waiter of {@code key}, if any: the store says an instance released it.
     *
     * @param key the lock key
     */
    @Override
    public void released(String key) {
        onReleased(key);
    }

    /**
     * Tells the local waiter with this owner id, if there is one, that a release handed it the lock.
     */
    @Override
    public void handedOver(String key, String owner, long token) {
        KeyState state = states.get(key);
        if (state != null) {
            state.handOver(owner, token);
        }
    }

    /**
     * Wakes the first local waiter of every key: release notifications may have been missed (the notification
     * channel was down), so every head should look again now.
     */
    @Override
    public void mayHaveMissed() {
        for (KeyState state : states.values()) {
            state.wakeHead();
        }
    }

    /**
     * Notes whether the store announces every release now, which lets waiters poll less. When it no longer does, the
     * first waiter of every key looks again at once, and so goes back to its usual pace.
     */
    @Override
    public void announcesEveryRelease(boolean every) {
        everyReleaseAnnounced = every;
        if (!every) {
            mayHaveMissed();
        }
    }

    /**
     * @return {@code true} if the store said it announces every release and has not taken it back since
     */
    public boolean everyReleaseAnnounced() {
        return everyReleaseAnnounced;
    }

    /**
     * @param key the lock key
     * @return the key's state, or {@code null} if this JVM keeps none
     */
    public KeyState get(String key) {
        return states.get(key);
    }

    /**
     * Drops the state of every key that has been idle (nobody waits, not used) for {@code idleNanos}: state that the
     * last waiter's leaving did not remove because a new waiter was joining at that moment.
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
