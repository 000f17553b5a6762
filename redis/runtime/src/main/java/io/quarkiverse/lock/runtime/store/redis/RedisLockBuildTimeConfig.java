package io.quarkiverse.lock.runtime.store.redis;

import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;

/**
 * Which Redis client the Redis store uses: fixed at build time, because the Redis extension creates only the clients
 * it is asked for when the application is built.
 */
@ConfigMapping(prefix = "quarkus.lock.redis")
@ConfigRoot(phase = ConfigPhase.BUILD_AND_RUN_TIME_FIXED)
public interface RedisLockBuildTimeConfig {

    /**
     * The name of the Quarkus Redis client to use (as in {@code quarkus.redis.<name>.hosts}); the default client
     * when not set.
     */
    Optional<String> clientName();
}
