package io.quarkiverse.lock.deployment.exception;

import org.jboss.jandex.MethodInfo;

/**
 * Thrown at build time, in the validation phase, when a duration of a {@code @Locked} method ({@code waitTime},
 * {@code expireAfter}, {@code holdAtLeast}) is no duration, is out of range, or keeps the lock longer than its
 * lease.
 */
public final class LockedDurationException extends LockedMethodException {

    private static final long serialVersionUID = 1L;

    /**
     * @param method the annotated method
     * @param problem what is wrong with it, as a clause
     */
    public LockedDurationException(MethodInfo method, String problem) {
        super(method, problem);
    }
}
