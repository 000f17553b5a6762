package io.quarkiverse.lock.deployment;

import io.quarkiverse.lock.deployment.spi.LockProvider;
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
     * The store the locks live in: {@code redis}, {@code mongodb}, {@code postgresql}, {@code in-memory}, or {@code auto} for
     * the store
     * whose client extension is present (a build error when several are), else {@code in-memory} with a startup
     * warning that the locks are local to this JVM.
     */
    @WithDefault("auto")
    LockProvider provider();

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
}
