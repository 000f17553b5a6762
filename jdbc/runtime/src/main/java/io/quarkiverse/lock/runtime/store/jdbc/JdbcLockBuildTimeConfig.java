package io.quarkiverse.lock.runtime.store.jdbc;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;

/**
 * Which datasource the JDBC store uses: fixed at build time, because the Agroal extension creates the datasources
 * configured when the application is built.
 */
@ConfigMapping(prefix = "quarkus.lock.jdbc")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface JdbcLockBuildTimeConfig {

    /**
     * The name of the JDBC datasource to use (as in {@code quarkus.datasource.<name>.jdbc.url}); the default
     * datasource when not set.
     */
    Optional<String> datasource();
}
