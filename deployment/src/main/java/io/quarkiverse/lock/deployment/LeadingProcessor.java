package io.quarkiverse.lock.deployment;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

import io.quarkiverse.lock.deployment.exception.LeadingMethodException;
import io.quarkiverse.lock.leadership.Leading;
import io.quarkiverse.lock.runtime.LockRecorder;
import io.quarkiverse.lock.runtime.config.LeadershipGroups;
import io.quarkiverse.lock.runtime.leadership.LeadingInterceptor;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;

/**
 * Build steps of leadership: the declared groups, checked at runtime init against their runtime configuration, and
 * {@code @Leading}, whose misuses (a group that is not declared, a private or static method, {@code SKIP} with a
 * primitive return type) fail the build, each as a {@link LeadingMethodException} naming the method.
 */
class LeadingProcessor {

    private static final DotName LEADING = DotName.createSimple(Leading.class);
    private static final DotName INTERCEPTOR = DotName.createSimple(LeadingInterceptor.class);
    private static final Set<DotName> UNSUPPORTED_RETURN_TYPES = Set.of(
            DotName.createSimple("java.util.concurrent.Future"),
            DotName.createSimple("java.util.concurrent.Flow$Publisher"),
            DotName.createSimple("org.reactivestreams.Publisher"));

    @BuildStep
    AdditionalBeanBuildItem interceptor() {
        return AdditionalBeanBuildItem.builder().addBeanClasses(LeadingInterceptor.class, Leading.class)
                .setUnremovable().build();
    }

    /** The declared groups, with their runtime settings checked at runtime init (a bad one fails startup). */
    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    SyntheticBeanBuildItem groups(LockRecorder recorder, LockBuildTimeConfig config) {
        Set<String> declared = new TreeSet<>(config.leadership().keySet());
        Set<String> disabled = new TreeSet<>();
        for (Map.Entry<String, LockBuildTimeConfig.LeadershipBuildTimeConfig> group : config.leadership().entrySet()) {
            if (!group.getValue().enabled()) {
                disabled.add(group.getKey());
            }
        }
        return SyntheticBeanBuildItem.configure(LeadershipGroups.class)
                .scope(Singleton.class)
                .unremovable()
                .setRuntimeInit()
                .supplier(recorder.leadershipGroups(declared, disabled))
                .done();
    }

    /** Every misuse of {@code @Leading} fails the build, all of them reported together. */
    @BuildStep
    ValidationErrorBuildItem leadingMethods(CombinedIndexBuildItem index, LockBuildTimeConfig config) {
        List<Throwable> misuses = new ArrayList<>();
        for (AnnotationInstance leading : index.getIndex().getAnnotations(LEADING)) {
            AnnotationTarget target = leading.target();
            if (target.kind() == AnnotationTarget.Kind.METHOD) {
                String problem = problem(target.asMethod(), leading, config.leadership().keySet());
                if (problem != null) {
                    misuses.add(new LeadingMethodException(target.asMethod(), problem));
                }
            } else if (target.kind() == AnnotationTarget.Kind.CLASS && !target.asClass().name().equals(INTERCEPTOR)) {
                misuses.add(new IllegalStateException("@Leading is for methods, but class " + target.asClass().name()
                        + " is annotated: annotate the methods that only the leader runs"));
            }
        }
        return misuses.isEmpty() ? null : new ValidationErrorBuildItem(misuses);
    }

    /** @return what is wrong with the method's {@code @Leading}, as a clause, or {@code null} if nothing is */
    private static String problem(MethodInfo method, AnnotationInstance leading, Set<String> declared) {
        AnnotationValue value = leading.value();
        String group = value == null ? "" : value.asString();
        if (group.isBlank()) {
            return "it names no group: name a group declared with quarkus.lock.leadership.\"<group>\".enabled=true";
        }
        if (!declared.contains(group)) {
            return "it names leadership group '" + group + "', which is not declared: declare it with "
                    + "quarkus.lock.leadership.\"" + group + "\".enabled=true"
                    + (declared.isEmpty() ? ""
                            : " (declared groups: " + String.join(", ", new TreeSet<>(declared))
                                    + ")");
        }
        if (Modifier.isPrivate(method.flags())) {
            return "it is private, and interceptors do not apply to private methods";
        }
        if (Modifier.isStatic(method.flags())) {
            return "it is static, and interceptors do not apply to static methods";
        }
        Type returnType = method.returnType();
        if (UNSUPPORTED_RETURN_TYPES.contains(returnType.name())) {
            return "its return type " + returnType.name() + " is not supported: return Uni, Multi, CompletionStage, "
                    + "or a plain value for a blocking method";
        }
        AnnotationValue whenNotLeader = leading.value("whenNotLeader");
        if (whenNotLeader != null && "SKIP".equals(whenNotLeader.asEnum())
                && returnType.kind() == Type.Kind.PRIMITIVE) {
            return "whenNotLeader = SKIP completes a skipped call with null, which its primitive return type "
                    + returnType + " cannot hold: return a wrapper type or use FAIL";
        }
        return null;
    }
}
