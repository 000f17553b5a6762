package io.quarkiverse.lock.spi;

/**
 * The pause before a release subscription tries to reconnect: 100 ms at first, doubling up to 10 s, and back to
 * 100 ms once it works again. Used by one subscription at a time (its callbacks do not overlap).
 */
public final class ReconnectBackoff {

    private static final long FIRST_MILLIS = 100;
    private static final long LAST_MILLIS = 10_000;

    private long nextMillis = FIRST_MILLIS;

    /**
     * @return how long to wait before the next attempt; each call doubles the one after it, up to the cap
     */
    public long next() {
        long delay = nextMillis;
        nextMillis = Math.min(nextMillis * 2, LAST_MILLIS);
        return delay;
    }

    /**
     * The subscription works again: the next failure waits the shortest pause.
     */
    public void reset() {
        nextMillis = FIRST_MILLIS;
    }
}
