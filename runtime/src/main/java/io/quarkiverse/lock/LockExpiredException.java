package io.quarkiverse.lock;

/**
 * The handle held the lock, but its lease ran out before it was released.
 * <p>
 * Another owner may have acquired the lock in between, so the integrity of data protected by this lock may have been
 * compromised. Fencing tokens ({@link ReactiveDistributedLock#fencingToken()}) let a downstream store reject the
 * writes of a holder whose lease ran out.
 */
public class LockExpiredException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String lockKey;

    /**
     * Creates the exception.
     *
     * @param lockKey the key of the lock whose lease ran out
     */
    public LockExpiredException(String lockKey) {
        super("Lock '" + lockKey + "' was released in the store because its lease ran out before the release. "
                + "The integrity of data protected by this lock may have been compromised.");
        this.lockKey = lockKey;
    }

    /**
     * @return the key of the lock whose lease ran out
     */
    public String getLockKey() {
        return lockKey;
    }
}
