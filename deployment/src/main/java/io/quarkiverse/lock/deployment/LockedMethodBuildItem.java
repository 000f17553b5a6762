package io.quarkiverse.lock.deployment;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.MethodInfo;

import io.quarkus.builder.item.MultiBuildItem;

/**
 * A valid method annotated {@code @Locked}, with its compiled key. An invalid one is reported as a
 * {@link io.quarkiverse.lock.deployment.exception.LockedMethodException} instead.
 */
public final class LockedMethodBuildItem extends MultiBuildItem {

    private final MethodInfo method;
    private final AnnotationInstance locked;
    private final LockKeyTemplate key;

    LockedMethodBuildItem(MethodInfo method, AnnotationInstance locked, LockKeyTemplate key) {
        this.method = method;
        this.locked = locked;
        this.key = key;
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
     * @return the compiled key
     */
    public LockKeyTemplate key() {
        return key;
    }
}
