package io.quarkiverse.lock.testsupport;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Starts the shared {@link RedisServer} for a {@code @QuarkusTest} and points the default Redis client at it.
 */
public class RedisServerResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        return Map.of("quarkus.redis.hosts", RedisServer.shared().uri());
    }

    @Override
    public void stop() {
        // the shared server stops when the JVM exits, so several test classes can use it
    }
}
