package io.quarkiverse.lock;

import java.time.Duration;

/**
 * The lock was not acquired before the wait ran out, so the action guarded by it was not run.
 * <p>
 * Thrown (or emitted as a failure) by the {@code acquireAndExecute} family of methods. It is not a store failure:
 * another owner held the lock for the whole wait.
 */
public class CannotAcquireLockException extends LockFailureException {

    private static final long serialVersionUID = 1L;

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
        super(lockKey, lockName, "Could not acquire lock '" + lockKey + "' within " + wait + ": another owner holds it",
                null);
    }
}
