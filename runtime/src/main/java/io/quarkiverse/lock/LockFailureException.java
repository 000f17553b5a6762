package io.quarkiverse.lock;

/**
 * A failure about one lock, which it names twice: by key, and by a name that holds no values of the call (for logs,
 * metrics and answers to clients). The base of {@link CannotAcquireLockException} (the lock was held for the whole
 * wait) and {@link LockException} (the store failed); catch one of those to tell them apart, or this to handle both.
 */
public abstract class LockFailureException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String lockKey;
    private final String lockName;

    /**
     * @param lockKey the key of the lock the failure is about
     * @param lockName the lock's name (see {@link #getLockName()}), or {@code null} if not known
     * @param message what failed, naming the key
     * @param cause the underlying error, may be {@code null}
     */
    protected LockFailureException(String lockKey, String lockName, String message, Throwable cause) {
        super(message, cause);
        this.lockKey = lockKey;
        this.lockName = lockName;
    }

    /**
     * @return the key of the lock the failure is about
     */
    public String getLockKey() {
        return lockKey;
    }

    /**
     * The lock's name, which, unlike its key, holds no values of the call: the key template of a {@code @Locked}
     * method, the handle's {@link ReactiveDistributedLock#withMetricsName(String) metrics name}, or {@code unnamed}
     * for a handle given none.
     *
     * @return the name, or {@code null} if whoever threw this did not know it
     */
    public String getLockName() {
        return lockName;
    }
}
