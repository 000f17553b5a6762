package io.quarkiverse.lock;

/**
 * The lock store could not be reached or answered with an error.
 * <p>
 * The message names the lock key and the operation that failed; the cause is the store client's error. The state of
 * the lock in the store is unknown after this failure: an acquire that failed this way may still have been granted
 * (it then frees when its lease runs out), and a release that failed this way may not have freed the lock.
 */
public class LockException extends LockFailureException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for a lock whose name is not known.
     *
     * @param lockKey the key of the lock the operation was about
     * @param message what failed, naming the key and the operation
     * @param cause the store client's error, may be {@code null}
     */
    public LockException(String lockKey, String message, Throwable cause) {
        this(lockKey, null, message, cause);
    }

    /**
     * Creates the exception.
     *
     * @param lockKey the key of the lock the operation was about
     * @param lockName the lock's name (see {@link #getLockName()}), or {@code null} if not known
     * @param message what failed, naming the key and the operation
     * @param cause the store client's error, may be {@code null}
     */
    public LockException(String lockKey, String lockName, String message, Throwable cause) {
        super(lockKey, lockName, message, cause);
    }
}
