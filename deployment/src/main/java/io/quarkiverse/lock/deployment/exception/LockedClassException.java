package io.quarkiverse.lock.deployment.exception;

import org.jboss.jandex.DotName;

/**
 * Thrown at build time, in the validation phase, when a class is annotated {@code @Locked}: the lock is taken per
 * method, so the annotation belongs on the methods that need it.
 */
public final class LockedClassException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient DotName className;

    /**
     * @param className the annotated class
     */
    public LockedClassException(DotName className) {
        super("@Locked on the class " + className + " is not supported: annotate the methods that need the lock");
        this.className = className;
    }

    /**
     * @return the annotated class
     */
    public DotName getClassName() {
        return className;
    }
}
