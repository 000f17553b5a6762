package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With the Redis client present and no provider configured, the locks live in Redis, under the configured prefix,
 * with the lock key as hash tag.
 */
class RedisStoreTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.shared()
            .overrideConfigKey("quarkus.lock.key-prefix", "orders:lock:");

    @Inject
    LockRegistry registry;

    @Inject
    DefaultLockRegistry internal;

    @Test
    void locksAreStoredInRedisUnderTheConfiguredPrefix() throws IOException {
        assertThat(internal.store().name()).isEqualTo("redis");
        ReactiveDistributedLock lock = registry.obtain("order-42");

        assertThat(lock.acquireOnce().await().atMost(Duration.ofSeconds(10))).isTrue();

        RedisServer redis = RedisServer.shared();
        assertThat(redis.send("EXISTS orders:lock:{order-42}")).isEqualTo(":1");
        assertThat(Long.parseLong(redis.send("PTTL orders:lock:{order-42}").substring(1)))
                .isPositive().isLessThanOrEqualTo(10_000);
        assertThat(redis.send("GET orders:lock:{order-42}:fence"))
                .as("the fencing counter holds the token, as a bulk string reply")
                .startsWith("$");
        assertThat(Long.parseLong(redis.send("PTTL orders:lock:{order-42}:fence").substring(1)))
                .as("the fencing counter expires after the fencing retention (1h by default)")
                .isGreaterThan(10_000).isLessThanOrEqualTo(3_600_000);

        assertThat(lock.release().await().atMost(Duration.ofSeconds(10))).isTrue();
        assertThat(redis.send("EXISTS orders:lock:{order-42}")).isEqualTo(":0");
    }

    @Test
    void aLostScriptCacheIsRefilledOnTheNextCall() throws IOException {
        assertThat(RedisServer.shared().send("SCRIPT FLUSH")).isEqualTo("+OK");
        ReactiveDistributedLock lock = registry.obtain("after-flush");

        assertThat(lock.acquireOnce().await().atMost(Duration.ofSeconds(10))).isTrue();
        assertThat(lock.release().await().atMost(Duration.ofSeconds(10))).isTrue();
    }
}
