package io.quarkiverse.lock.deployment;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationTransformation;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

import io.quarkiverse.lock.LockKey;
import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.deployment.exception.LockedClassException;
import io.quarkiverse.lock.deployment.exception.LockedDurationException;
import io.quarkiverse.lock.deployment.exception.LockedKeyException;
import io.quarkiverse.lock.deployment.exception.LockedMethodException;
import io.quarkiverse.lock.deployment.exception.LockedReturnTypeException;
import io.quarkiverse.lock.deployment.exception.LockedTargetException;
import io.quarkiverse.lock.runtime.LockRecorder;
import io.quarkiverse.lock.runtime.interceptor.CompiledLockKey;
import io.quarkiverse.lock.runtime.interceptor.LockedDurations;
import io.quarkiverse.lock.runtime.interceptor.LockedInterceptor;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.AnnotationsTransformerBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;

/**
 * Build steps of {@code @Locked}: finds the annotated methods, compiles and checks their keys and durations (a
 * misuse fails the build with an exception of {@code io.quarkiverse.lock.deployment.exception} naming the method),
 * and hands the compiled keys to the interceptor.
 */
class LockedProcessor {

    static final DotName LOCKED = DotName.createSimple(Locked.class);
    static final DotName LOCK_KEY = DotName.createSimple(LockKey.class);
    private static final Set<DotName> UNSUPPORTED_RETURN_TYPES = Set.of(
            DotName.createSimple("java.util.concurrent.Future"),
            DotName.createSimple("java.util.concurrent.Flow$Publisher"),
            DotName.createSimple("org.reactivestreams.Publisher"));
    private static final DotName INTERCEPTOR = DotName.createSimple(LockedInterceptor.class);

    @BuildStep
    AdditionalBeanBuildItem interceptor() {
        return AdditionalBeanBuildItem.builder()
                .addBeanClasses(LockedInterceptor.class, Locked.class, CompiledLockKey.class)
                .setUnremovable()
                .build();
    }

    /**
     * Inspects every {@code @Locked} method; the valid ones become {@link LockedMethodBuildItem}s, and every misuse
     * fails the build, all of them reported together, each as its own exception naming the method or class.
     */
    @BuildStep
    void lockedMethods(CombinedIndexBuildItem index, BuildProducer<LockedMethodBuildItem> methods,
            BuildProducer<ValidationErrorBuildItem> errors) {
        List<Throwable> misuses = new ArrayList<>();
        for (AnnotationInstance locked : index.getIndex().getAnnotations(LOCKED)) {
            AnnotationTarget target = locked.target();
            if (target.kind() == AnnotationTarget.Kind.METHOD) {
                try {
                    methods.produce(inspect(target.asMethod(), locked));
                } catch (LockedMethodException misuse) {
                    misuses.add(misuse);
                }
            } else if (target.kind() == AnnotationTarget.Kind.CLASS && !target.asClass().name().equals(INTERCEPTOR)) {
                misuses.add(new LockedClassException(target.asClass().name()));
            }
        }
        if (!misuses.isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(misuses));
        }
    }

    @BuildStep
    AnnotationsTransformerBuildItem keyTemplates(List<LockedMethodBuildItem> methods) {
        Map<MethodInfo, LockKeyTemplate> keys = new HashMap<>();
        for (LockedMethodBuildItem method : methods) {
            keys.put(method.method(), method.key());
        }
        return new AnnotationsTransformerBuildItem(AnnotationTransformation.forMethods()
                .whenMethod(keys::containsKey)
                .transform(context -> {
                    LockKeyTemplate key = keys.get(context.declaration().asMethod());
                    context.add(AnnotationInstance.builder(CompiledLockKey.class)
                            .add("literals", key.literalArray())
                            .add("positions", key.positionArray())
                            .build());
                }));
    }

    /**
     * Has the durations checked at startup that depend on runtime configuration: config expressions, and each
     * {@code holdAtLeast} against its lease (which may be the configured {@code quarkus.lock.expire-after}).
     */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    void checkDurationsAtStartup(LockRecorder recorder, List<LockedMethodBuildItem> methods) {
        Map<String, String> waits = new HashMap<>();
        Map<String, String> leases = new HashMap<>();
        Map<String, String> holds = new HashMap<>();
        for (LockedMethodBuildItem method : methods) {
            String name = LockedMethodException.describe(method.method());
            String wait = stringValue(method.locked(), "waitTime");
            if (LockedDurations.isExpression(wait)) {
                waits.put(name, wait);
            }
            String lease = stringValue(method.locked(), "expireAfter");
            String hold = stringValue(method.locked(), "holdAtLeast");
            if (!hold.isBlank()) {
                holds.put(name, hold);
                leases.put(name, lease);
            } else if (LockedDurations.isExpression(lease)) {
                leases.put(name, lease);
            }
        }
        if (!waits.isEmpty() || !leases.isEmpty()) {
            recorder.checkDurations(waits, leases, holds);
        }
    }

    private static LockedMethodBuildItem inspect(MethodInfo method, AnnotationInstance locked) {
        checkTarget(method);
        checkReturnType(method, locked);
        try {
            checkDuration(locked, "waitTime", true);
            checkDuration(locked, "expireAfter", false);
            checkDuration(locked, "holdAtLeast", true);
            checkHoldAtLeastWithinLease(locked);
        } catch (IllegalArgumentException problem) {
            throw new LockedDurationException(method, problem.getMessage());
        }
        try {
            return new LockedMethodBuildItem(method, locked, compileKey(method, locked));
        } catch (IllegalArgumentException problem) {
            throw new LockedKeyException(method, problem.getMessage());
        }
    }

    private static void checkTarget(MethodInfo method) {
        if (Modifier.isPrivate(method.flags())) {
            throw new LockedTargetException(method, "it is private, and interceptors do not apply to private methods");
        }
        if (Modifier.isStatic(method.flags())) {
            throw new LockedTargetException(method, "it is static, and interceptors do not apply to static methods");
        }
    }

    private static void checkReturnType(MethodInfo method, AnnotationInstance locked) {
        Type returnType = method.returnType();
        if (UNSUPPORTED_RETURN_TYPES.contains(returnType.name())) {
            throw new LockedReturnTypeException(method, "its return type " + returnType.name() + " is not supported: "
                    + "return Uni, Multi, CompletionStage, or a plain value for a blocking method");
        }
        if ("SKIP".equals(enumValue(locked, "whenBusy")) && returnType.kind() == Type.Kind.PRIMITIVE) {
            throw new LockedReturnTypeException(method, "whenBusy = SKIP completes a skipped call with null, which "
                    + "its primitive return type " + returnType + " cannot hold: return a wrapper type or use FAIL");
        }
    }

    /** When both are given as durations; otherwise the check waits for startup. */
    private static void checkHoldAtLeastWithinLease(AnnotationInstance locked) {
        String hold = stringValue(locked, "holdAtLeast");
        String lease = stringValue(locked, "expireAfter");
        if (hold.isBlank() || lease.isBlank() || LockedDurations.isExpression(hold)
                || LockedDurations.isExpression(lease)) {
            return;
        }
        LockedDurations.checkHoldAtLeast(LockedDurations.parse(hold, "holdAtLeast", true),
                "holdAtLeast = \"" + hold + "\"", LockedDurations.parse(lease, "expireAfter", false),
                "expireAfter = \"" + lease + "\"");
    }

    private static void checkDuration(AnnotationInstance locked, String member, boolean allowZero) {
        String value = stringValue(locked, member);
        if (!value.isBlank() && !LockedDurations.isExpression(value)) {
            LockedDurations.parse(value, member, allowZero);
        }
    }

    private static LockKeyTemplate compileKey(MethodInfo method, AnnotationInstance locked) {
        List<Short> lockKeyPositions = new ArrayList<>();
        for (AnnotationInstance lockKey : method.annotations(LOCK_KEY)) {
            if (lockKey.target().kind() == AnnotationTarget.Kind.METHOD_PARAMETER) {
                lockKeyPositions.add(lockKey.target().asMethodParameter().position());
            }
        }
        lockKeyPositions.sort(null);
        String template = stringValue(locked, "key");
        if (template.isBlank()) {
            return LockKeyTemplate.byDefault(method.declaringClass().name() + "." + method.name(), lockKeyPositions);
        }
        if (!lockKeyPositions.isEmpty()) {
            throw new IllegalArgumentException("it has both a key template and @LockKey parameters: use one of them");
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < method.parametersCount(); i++) {
            names.add(method.parameterName(i));
        }
        return LockKeyTemplate.compile(template, names);
    }

    private static String stringValue(AnnotationInstance annotation, String member) {
        AnnotationValue value = annotation.value(member);
        return value == null ? "" : value.asString();
    }

    private static String enumValue(AnnotationInstance annotation, String member) {
        AnnotationValue value = annotation.value(member);
        return value == null ? null : value.asEnum();
    }
}
