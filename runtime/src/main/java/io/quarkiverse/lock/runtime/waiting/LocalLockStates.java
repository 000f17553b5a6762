package io.quarkiverse.lock.runtime.waiting;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongConsumer;

import io.quarkiverse.lock.spi.ReleaseListener;

/**
 * The {@link LocalLine} of every key this JVM waits for.
 * <p>
 * Joining a line goes through {@link ConcurrentHashMap#compute} on its key; the last waiter to leave removes the line
 * through {@link ConcurrentHashMap#computeIfPresent} only if it is empty at that moment, and so does the evictor for
 * a line that is idle. So a line that is waited in is never dropped, and a new waiter never joins a dropped line.
 */
public final class LocalLockStates implements ReleaseListener {

    private final ConcurrentHashMap<String, LocalLine> lines = new ConcurrentHashMap<>();
    private volatile boolean everyReleaseAnnounced;

    /**
     * Puts a waiting acquisition in the local line of {@code key}.
     *
     * @param key the lock key
     * @param owner the waiting handle's owner id
     * @param onHandOver called with the fencing token if a release hands the lock straight to this waiter
     * @return the acquisition's place in the line, to pass to {@link #leave(Waiter)}
     */
    public Waiter join(String key, String owner, LongConsumer onHandOver) {
        Waiter[] joined = new Waiter[1];
        lines.compute(key, (k, line) -> {
            LocalLine joining = line == null ? new LocalLine(k, System.nanoTime()) : line;
            joined[0] = joining.join(owner, onHandOver, this);
            return joining;
        });
        return joined[0];
    }

    /**
     * Takes a waiting acquisition out of its line (it acquired, gave up, failed or was cancelled); if it was first
     * in line, the next one becomes first and is woken.
     *
     * @param waiter the place {@link #join(String, String, LongConsumer)} returned
     */
    public void leave(Waiter waiter) {
        LocalLine line = waiter.leave(System.nanoTime());
        lines.computeIfPresent(line.key(), (k, current) -> current == line && current.isEmpty() ? null : current);
    }

    /**
     * Wakes the first local waiter of {@code key}, if any: a handle of this JVM released it, or the store says an
     * instance did.
     *
     * @param key the lock key
     */
    @Override
    public void released(String key) {
        LocalLine line = lines.get(key);
        if (line != null) {
            line.wakeHead();
        }
    }

    /**
     * Tells the local waiter with this owner id, if there is one, that a release handed it the lock.
     */
    @Override
    public void handedOver(String key, String owner, long token) {
        LocalLine line = lines.get(key);
        if (line != null) {
            line.handOver(owner, token);
        }
    }

    /**
     * Wakes the first local waiter of every key: release notifications may have been missed (the notification
     * channel was down), so every head should look again now.
     */
    @Override
    public void mayHaveMissed() {
        for (LocalLine line : lines.values()) {
            line.wakeHead();
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
     * @return the key's line, or {@code null} if this JVM keeps none
     */
    public LocalLine get(String key) {
        return lines.get(key);
    }

    /**
     * Drops the line of every key that has been idle (nobody waits, not used) for {@code idleNanos}: a line that the
     * last waiter's leaving did not remove because a new waiter was joining at that moment.
     *
     * @param nowNanos the current {@link System#nanoTime()}
     * @param idleNanos how long a line must have been idle
     * @return how many lines were dropped
     */
    public int evictIdle(long nowNanos, long idleNanos) {
        int evicted = 0;
        for (String key : lines.keySet()) {
            boolean[] dropped = new boolean[1];
            lines.computeIfPresent(key, (k, line) -> {
                dropped[0] = line.isIdle(nowNanos, idleNanos);
                return dropped[0] ? null : line;
            });
            if (dropped[0]) {
                evicted++;
            }
        }
        return evicted;
    }

    /**
     * @return how many keys this JVM keeps a line for
     */
    public int size() {
        return lines.size();
    }
}
