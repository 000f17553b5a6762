package io.quarkiverse.lock.deployment.exception;

import org.jboss.jandex.MethodInfo;

/**
 * Thrown at build time, in the validation phase, when a private or static method is annotated {@code @Locked}:
 * interceptors do not apply to it.
 */
public final class LockedTargetException extends LockedMethodException {

    private static final long serialVersionUID = 1L;

    /**
     * @param method the annotated method
     * @param problem what is wrong with it, as a clause
     */
    public LockedTargetException(MethodInfo method, String problem) {
        super(method, problem);
    }
}
