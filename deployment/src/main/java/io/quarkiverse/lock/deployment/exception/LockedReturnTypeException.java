package io.quarkiverse.lock.deployment.exception;

import org.jboss.jandex.MethodInfo;

/**
 * Thrown at build time, in the validation phase, when a {@code @Locked} method returns a type the lock cannot guard
 * (a plain {@code Future}, a {@code Publisher} that is no {@code Multi}), or a primitive while {@code whenBusy =
 * SKIP} completes a skipped call with {@code null}.
 */
public final class LockedReturnTypeException extends LockedMethodException {

    private static final long serialVersionUID = 1L;

    /**
     * @param method the annotated method
     * @param problem what is wrong with it, as a clause
     */
    public LockedReturnTypeException(MethodInfo method, String problem) {
        super(method, problem);
    }
}
