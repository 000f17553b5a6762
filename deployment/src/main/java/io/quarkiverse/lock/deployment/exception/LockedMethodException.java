package io.quarkiverse.lock.deployment.exception;

import org.jboss.jandex.MethodInfo;

/**
 * Thrown at build time, in the validation phase, for a method whose {@code @Locked} cannot work as written. The
 * message names the method, such as {@code com.acme.Orders#pay(java.lang.String)}, and the problem.
 */
public abstract class LockedMethodException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient MethodInfo method;

    /**
     * @param method the annotated method
     * @param problem what is wrong with it, as a clause ("it is static, and ...")
     */
    protected LockedMethodException(MethodInfo method, String problem) {
        super("@Locked method " + describe(method) + ": " + problem);
        this.method = method;
    }

    /**
     * @return the annotated method
     */
    public MethodInfo getMethod() {
        return method;
    }

    /**
     * @param method a method
     * @return the method as messages name it, such as {@code com.acme.Orders#pay(java.lang.String)}
     */
    public static String describe(MethodInfo method) {
        StringBuilder name = new StringBuilder(method.declaringClass().name().toString()).append('#')
                .append(method.name()).append('(');
        for (int i = 0; i < method.parametersCount(); i++) {
            name.append(i == 0 ? "" : ", ").append(method.parameterType(i).name());
        }
        return name.append(')').toString();
    }
}
