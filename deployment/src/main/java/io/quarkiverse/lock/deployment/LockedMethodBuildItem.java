package io.quarkiverse.lock.deployment;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.MethodInfo;

import io.quarkus.builder.item.MultiBuildItem;

/**
 * A method annotated {@code @Locked}, with its compiled key, or the reason it is invalid.
 */
public final class LockedMethodBuildItem extends MultiBuildItem {

    private final MethodInfo method;
    private final AnnotationInstance locked;
    private final LockKeyTemplate key;
    private final String problem;

    LockedMethodBuildItem(MethodInfo method, AnnotationInstance locked, LockKeyTemplate key, String problem) {
        this.method = method;
        this.locked = locked;
        this.key = key;
        this.problem = problem;
    }

    /**
     * @return the annotated method
     */
    public MethodInfo method() {
        return method;
    }

    /**
     * @return the {@code @Locked} annotation on it
     */
    public AnnotationInstance locked() {
        return locked;
    }

    /**
     * @return the compiled key, or {@code null} if the method is invalid
     */
    public LockKeyTemplate key() {
        return key;
    }

    /**
     * @return why the method is invalid, naming it; {@code null} if it is valid
     */
    public String problem() {
        return problem;
    }

    /**
     * @param method a method
     * @return the method as messages name it, such as {@code com.acme.Orders#pay(java.lang.String)}
     */
    static String describe(MethodInfo method) {
        StringBuilder name = new StringBuilder(method.declaringClass().name().toString()).append('#')
                .append(method.name()).append('(');
        for (int i = 0; i < method.parametersCount(); i++) {
            name.append(i == 0 ? "" : ", ").append(method.parameterType(i).name());
        }
        return name.append(')').toString();
    }
}
