package io.quarkiverse.lock.spi;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The keys on which this instance lately found a line of waiters, for a store whose operations have a fast path that
 * decides only when nobody is in line (a statement that reads no line) and otherwise changes nothing, so that the full
 * operation must follow: on such keys the store skips the fast path, since it can only cost a round trip more. A
 * waiter's polls and the release of a lock that was waited for are where this pays. The SQL stores use it; it is safe
 * to use from any thread.
 * <p>
 * A key is remembered for {@link LockStore#PLACE_MILLIS} after the last sighting, the time a place stays in the line
 * without being asked for again, and then forgotten; a key remembered wrongly only costs its statements the fast path,
 * never correctness, since the full statement alone decides every operation.
 */
public final class KnownLines {

    private static final long REMEMBERED_NANOS = LockStore.PLACE_MILLIS * 1_000_000;

    private final ConcurrentHashMap<String, Long> lapseAt = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    /**
     * @param nanoTime the monotonic clock, in nanoseconds
     */
    public KnownLines(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /**
     * Remembers that the key has a line, from now on.
     *
     * @param key the lock key
     */
    public void seen(String key) {
        lapseAt.put(key, nanoTime.getAsLong() + REMEMBERED_NANOS);
    }

    /**
     * @param key the lock key
     * @return {@code true} if a line was seen on the key lately, so its statement should skip the fast path;
     *         {@code false} if none was (and a sighting that lapsed is forgotten)
     */
    public boolean likely(String key) {
        Long lapse = lapseAt.get(key);
        if (lapse == null) {
            return false;
        }
        if (lapse - nanoTime.getAsLong() > 0) {
            return true;
        }
        lapseAt.remove(key, lapse);
        return false;
    }

    /** Forgets every sighting that lapsed, so keys no longer used take no memory. */
    public void forgetLapsed() {
        long now = nanoTime.getAsLong();
        lapseAt.values().removeIf(lapse -> lapse - now <= 0);
    }

    /** @return how many keys are remembered, lapsed ones not yet forgotten included */
    public int size() {
        return lapseAt.size();
    }
}
