package io.quarkiverse.lock.spi;

/**
 * What a store answered to one acquire attempt: the fencing token of the new hold, or how long the current holder's
 * lease still runs.
 */
public final class AcquireResult {

    private static final long UNKNOWN = -1;

    private final long token;
    private final long holderRemainingMillis;

    private AcquireResult(long token, long holderRemainingMillis) {
        this.token = token;
        this.holderRemainingMillis = holderRemainingMillis;
    }

    /**
     * @param token the fencing token of the new hold, positive
     * @return a result saying the lock was acquired
     */
    public static AcquireResult acquired(long token) {
        if (token <= 0) {
            throw new IllegalArgumentException("A fencing token must be positive, but is " + token);
        }
        return new AcquireResult(token, UNKNOWN);
    }

    /**
     * @param holderRemainingMillis how long the current holder's lease still runs, or a negative value if unknown
     * @return a result saying another owner holds the lock
     */
    public static AcquireResult heldByAnother(long holderRemainingMillis) {
        return new AcquireResult(0, holderRemainingMillis < 0 ? UNKNOWN : holderRemainingMillis);
    }

    /**
     * @return {@code true} if the attempt acquired the lock
     */
    public boolean acquired() {
        return token > 0;
    }

    /**
     * @return the fencing token of the new hold, or 0 if the attempt did not acquire the lock
     */
    public long token() {
        return token;
    }

    /**
     * @return how long the holder's lease still runs when not acquired, or -1 if unknown (or acquired)
     */
    public long holderRemainingMillis() {
        return holderRemainingMillis;
    }
}
