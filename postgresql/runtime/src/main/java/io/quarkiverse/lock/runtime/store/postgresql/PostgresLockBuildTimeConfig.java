package io.quarkiverse.lock.runtime.store.postgresql;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;

/**
 * Which datasource the PostgreSQL store uses: fixed at build time, because the reactive PostgreSQL extension creates
 * the pools of the datasources configured when the application is built.
 */
@ConfigMapping(prefix = "quarkus.lock.postgresql")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface PostgresLockBuildTimeConfig {

    /**
     * The name of the reactive PostgreSQL datasource to use (as in {@code quarkus.datasource.<name>.reactive.url});
     * the default datasource when not set.
     */
    Optional<String> datasource();
}
