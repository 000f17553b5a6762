package io.quarkiverse.lock.deployment.exception;

import org.jboss.jandex.MethodInfo;

/**
 * Thrown at build time, in the validation phase, for a method whose {@code @Leading} cannot work as written: it names
 * a group that is not declared, or the method is private or static, or it skips with a primitive return type. The
 * message names the method, such as {@code com.acme.Orders#consume()}, and the problem.
 */
public class LeadingMethodException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient MethodInfo method;

    /**
     * @param method the annotated method
     * @param problem what is wrong with it, as a clause ("it names group 'x', which ...")
     */
    public LeadingMethodException(MethodInfo method, String problem) {
        super("@Leading method " + LockedMethodException.describe(method) + ": " + problem);
        this.method = method;
    }

    /**
     * @return the annotated method
     */
    public MethodInfo getMethod() {
        return method;
    }
}
