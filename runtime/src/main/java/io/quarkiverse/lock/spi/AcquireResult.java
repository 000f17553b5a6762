package io.quarkiverse.lock.spi;

/**
 * What a store answered to one acquire attempt: the fencing token of the new hold, or how long the current holder's
 * lease still runs and, where the store can tell, the highest fencing token it had issued for the key by then.
 */
public final class AcquireResult {

    private static final long UNKNOWN = -1;

    /** What {@link #issuedTokensUpTo()} reports when the store cannot tell. */
    public static final long ISSUED_TOKENS_UNKNOWN = Long.MAX_VALUE;

    private final long token;
    private final long holderRemainingMillis;
    private final long issuedTokensUpTo;

    private AcquireResult(long token, long holderRemainingMillis, long issuedTokensUpTo) {
        this.token = token;
        this.holderRemainingMillis = holderRemainingMillis;
        this.issuedTokensUpTo = issuedTokensUpTo;
    }

    /**
     * @param token the fencing token of the new hold, positive
     * @return a result saying the lock was acquired
     */
    public static AcquireResult acquired(long token) {
        if (token <= 0) {
            throw new IllegalArgumentException("A fencing token must be positive, but is " + token);
        }
        return new AcquireResult(token, UNKNOWN, token);
    }

    /**
     * @param holderRemainingMillis how long the current holder's lease still runs, or a negative value if unknown
     * @return a result saying another owner holds the lock
     */
    public static AcquireResult heldByAnother(long holderRemainingMillis) {
        return heldByAnother(holderRemainingMillis, ISSUED_TOKENS_UNKNOWN);
    }

    /**
     * A refusal that also says how far the key's fencing tokens had gone when the store refused, so that a hand-over
     * announced later can be told apart from one made before this refusal (see {@link ReleaseListener#handedOver}).
     *
     * @param holderRemainingMillis how long the current holder's lease still runs, or a negative value if unknown
     * @param issuedTokensUpTo a value at least as high as every fencing token the store had issued for the key when
     *        it refused; {@link #ISSUED_TOKENS_UNKNOWN} if it cannot tell
     * @return a result saying another owner holds the lock
     */
    public static AcquireResult heldByAnother(long holderRemainingMillis, long issuedTokensUpTo) {
        return new AcquireResult(0, holderRemainingMillis < 0 ? UNKNOWN : holderRemainingMillis, issuedTokensUpTo);
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

    /**
     * A hand-over to the refused acquisition announced with a token above this value was made after the refusal; one
     * with a token at most this value was made before it, and the refusal shows the lock has changed hands since.
     *
     * @return for a refusal, a value at least as high as every fencing token the store had issued for the key when it
     *         refused, or {@link #ISSUED_TOKENS_UNKNOWN} if the store cannot tell; for a grant, its token
     */
    public long issuedTokensUpTo() {
        return issuedTokensUpTo;
    }
}
