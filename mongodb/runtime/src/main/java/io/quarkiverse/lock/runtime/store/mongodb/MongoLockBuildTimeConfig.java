package io.quarkiverse.lock.runtime.store.mongodb;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;

/**
 * Which MongoDB client the MongoDB store uses: fixed at build time, because the MongoDB extension creates the named
 * clients it is told of when the application is built.
 */
@ConfigMapping(prefix = "quarkus.lock.mongodb")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface MongoLockBuildTimeConfig {

    /**
     * The name of the Quarkus MongoDB client to use (as in {@code quarkus.mongodb.<name>.connection-string}); the
     * default client when not set.
     */
    Optional<String> clientName();
}
