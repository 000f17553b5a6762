package io.quarkiverse.lock;

/**
 * A lock key was refused before anything reached the store: it is {@code null}, blank, longer than
 * {@link LockRegistry#MAX_KEY_LENGTH} characters, or a {@code @Locked} method's key would hold a {@code null}
 * argument.
 * <p>
 * It is an {@link IllegalArgumentException}, as every refused argument of the API is; its own type tells a key built
 * from bad input (with {@code quarkus-rest}, a 400 answer) from the other refusals, which are programming errors.
 */
public class InvalidLockKeyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String lockName;

    /**
     * Creates the exception.
     *
     * @param lockName the lock's name (see {@link #getLockName()}), or {@code null} if not known
     * @param message what is wrong with the key
     */
    public InvalidLockKeyException(String lockName, String message) {
        super(message);
        this.lockName = lockName;
    }

    /**
     * The lock's name, which, unlike its key, holds no values of the call: the key template of a {@code @Locked}
     * method.
     *
     * @return the name, or {@code null} when the key was refused before it had one (a key given to
     *         {@link LockRegistry#obtain(String)})
     */
    public String getLockName() {
        return lockName;
    }
}
