package io.quarkiverse.lock.runtime.store.postgresql;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import io.quarkiverse.lock.spi.LockStore;

/**
 * The keys on which this instance lately found a line of waiters, so that their next statements skip the fast path:
 * with a line, the statement that reads none can only answer that it changed nothing, and the full statement follows
 * it on the same connection, two round trips where one does. A waiter's polls and the release of a lock that was
 * waited for are where this pays.
 * <p>
 * A key is remembered for {@link LockStore#PLACE_MILLIS} after the last sighting, the time a place stays in the line
 * without being asked for again, and then forgotten; a key remembered wrongly only costs its statements the fast path,
 * never correctness, since the full statement alone decides every operation.
 */
final class KnownLines {

    private static final long REMEMBERED_NANOS = LockStore.PLACE_MILLIS * 1_000_000;

    private final ConcurrentHashMap<String, Long> lapseAt = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    /**
     * @param nanoTime the monotonic clock, in nanoseconds
     */
    KnownLines(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /**
     * Remembers that the key has a line, from now on.
     *
     * @param key the lock key
     */
    void seen(String key) {
        lapseAt.put(key, nanoTime.getAsLong() + REMEMBERED_NANOS);
    }

    /**
     * @param key the lock key
     * @return {@code true} if a line was seen on the key lately, so its statement should skip the fast path;
     *         {@code false} if none was (and a sighting that lapsed is forgotten)
     */
    boolean likely(String key) {
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
    void forgetLapsed() {
        long now = nanoTime.getAsLong();
        lapseAt.values().removeIf(lapse -> lapse - now <= 0);
    }

    /** @return how many keys are remembered, lapsed ones not yet forgotten included */
    int size() {
        return lapseAt.size();
    }
}
