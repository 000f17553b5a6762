package io.quarkiverse.lock.deployment;

import java.util.Map;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/**
 * Build-time configuration of Quarkus Lock.
 */
@ConfigMapping(prefix = "quarkus.lock")
@ConfigRoot(phase = ConfigPhase.BUILD_TIME)
public interface LockBuildTimeConfig {

    /**
     * The store the locks live in: the name of a store present in the application, such as {@code redis},
     * {@code mongodb}, {@code postgresql} or {@code in-memory}; or {@code auto} for the present store the build ranks
     * first (a store of its own client, such as Redis, before one on the application's JDBC datasource; a build error
     * when two rank first), else {@code in-memory} with a startup warning that the locks are local to this JVM.
     */
    @WithDefault("auto")
    String provider();

    /**
     * Whether a readiness check reports if the lock store answers, when SmallRye Health is present.
     */
    @WithName("health.enabled")
    @WithDefault("true")
    boolean healthEnabled();

    /**
     * Whether lock metrics are published, when {@code quarkus-micrometer} is present.
     */
    @WithName("metrics.enabled")
    @WithDefault("true")
    boolean metricsEnabled();

    /**
     * Whether the acquisitions and guarded sections of locks make spans, when {@code quarkus-opentelemetry} is
     * present: one span per acquisition ({@code lock acquire <name>}) and one per guarded section
     * ({@code lock section <name>}), the parent of the spans its action makes.
     */
    @WithName("tracing.enabled")
    @WithDefault("true")
    boolean tracingEnabled();

    /**
     * Whether, when {@code quarkus-rest} is present, a lock not acquired answers 409 Conflict, a lock store failure
     * 503 Service Unavailable and a refused lock key 400 Bad Request, instead of 500. An application's own exception
     * mapper for one of these exceptions takes precedence either way.
     */
    @WithName("rest.exception-mappers.enabled")
    @WithDefault("true")
    boolean restExceptionMappersEnabled();

    /**
     * The leadership groups, by name. Setting a group's {@code enabled} declares it: only declared groups can be named
     * by {@code @Leading} (any other fails the build) and configured at runtime
     * ({@code quarkus.lock.leadership."<group>".lease} and the rest).
     */
    @WithName("leadership")
    Map<String, LeadershipBuildTimeConfig> leadership();

    /**
     * A leadership group, as the build knows it.
     */
    @ConfigGroup
    interface LeadershipBuildTimeConfig {

        /**
         * Whether this application takes part in the group: every instance joins it at startup (unless
         * {@code join-at-startup} is false) and may lead it. With {@code false}, the group stays declared, so the
         * {@code @Leading} methods naming it build, but this application never leads it: they fail or skip.
         */
        @WithDefault("true")
        boolean enabled();
    }
}
