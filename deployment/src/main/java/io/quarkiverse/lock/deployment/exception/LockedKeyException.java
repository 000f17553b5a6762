package io.quarkiverse.lock.deployment.exception;

import org.jboss.jandex.MethodInfo;

/**
 * Thrown at build time, in the validation phase, when the key of a {@code @Locked} method cannot be compiled: a
 * malformed template, a placeholder naming no parameter, or a template together with {@code @LockKey} parameters.
 */
public final class LockedKeyException extends LockedMethodException {

    private static final long serialVersionUID = 1L;

    /**
     * @param method the annotated method
     * @param problem what is wrong with it, as a clause
     */
    public LockedKeyException(MethodInfo method, String problem) {
        super(method, problem);
    }
}
