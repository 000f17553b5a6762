package io.quarkiverse.lock;

import java.time.Duration;

/**
 * The lock was not acquired before the wait ran out, so the action guarded by it was not run.
 * <p>
 * Thrown (or emitted as a failure) by the {@code acquireAndExecute} family of methods. It is not a store failure:
 * another owner held the lock for the whole wait.
 */
public class CannotAcquireLockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String lockKey;
    private final String lockName;

    /**
     * Creates the exception for a lock whose name is not known.
     *
     * @param lockKey the key of the lock that could not be acquired
     * @param wait how long the caller waited for it
     */
    public CannotAcquireLockException(String lockKey, Duration wait) {
        this(lockKey, null, wait);
    }

    /**
     * Creates the exception.
     *
     * @param lockKey the key of the lock that could not be acquired
     * @param lockName the lock's name (see {@link #getLockName()}), or {@code null} if not known
     * @param wait how long the caller waited for it
     */
    public CannotAcquireLockException(String lockKey, String lockName, Duration wait) {
        super("Could not acquire lock '" + lockKey + "' within " + wait + ": another owner holds it");
        this.lockKey = lockKey;
        this.lockName = lockName;
    }

    /**
     * @return the key of the lock that could not be acquired
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
