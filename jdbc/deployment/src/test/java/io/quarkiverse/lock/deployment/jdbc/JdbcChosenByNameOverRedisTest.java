package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With a Redis client and a JDBC datasource, {@code quarkus.lock.provider=jdbc} chooses the JDBC store.
 */
class JdbcChosenByNameOverRedisTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.h2("chosen_by_name")
            .setForcedDependencies(JdbcTestApp.REDIS_CLIENT)
            .overrideConfigKey("quarkus.redis.hosts", RedisServer.shared().uri())
            .overrideConfigKey("quarkus.lock.provider", "jdbc");

    @Inject
    DefaultLockRegistry registry;

    @Test
    void theJdbcStoreIsChosen() {
        assertThat(registry.store().name()).isEqualTo("jdbc");
    }
}
