package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An application with a JDBC datasource for its own data and a Redis client keeps the Redis store, with no new
 * property: adding the JDBC store changes the store of no such application.
 */
class RedisKeptWithJdbcDatasourceTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.h2("redis_kept")
            .setForcedDependencies(JdbcTestApp.REDIS_CLIENT)
            .overrideConfigKey("quarkus.redis.hosts", RedisServer.shared().uri());

    @Inject
    DefaultLockRegistry registry;

    @Inject
    LockRegistry locks;

    @Test
    void theRedisStoreIsKept() {
        assertThat(registry.store().name()).isEqualTo("redis");
        assertThat(locks.obtainBlocking("kept").acquire(Duration.ZERO)).isTrue();
    }
}
