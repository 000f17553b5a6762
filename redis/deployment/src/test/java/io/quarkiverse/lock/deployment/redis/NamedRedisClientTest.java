package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.lock.redis.client-name} puts the locks on a named Redis client, not on the default one.
 */
class NamedRedisClientTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on("redis://127.0.0.1:1")
            .overrideConfigKey("quarkus.redis.locks.hosts", RedisServer.shared().uri())
            .overrideConfigKey("quarkus.lock.redis.client-name", "locks");

    @Inject
    LockRegistry registry;

    @Test
    void locksUseTheNamedClient() throws IOException {
        ReactiveDistributedLock lock = registry.obtain("named-client");

        assertThat(lock.acquireOnce().await().atMost(Duration.ofSeconds(10))).isTrue();
        assertThat(RedisServer.shared().send("EXISTS lock:{named-client}")).isEqualTo(":1");
        assertThat(lock.release().await().atMost(Duration.ofSeconds(10))).isTrue();
    }
}
