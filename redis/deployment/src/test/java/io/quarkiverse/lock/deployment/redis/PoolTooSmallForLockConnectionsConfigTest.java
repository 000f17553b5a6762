package io.quarkiverse.lock.deployment.redis;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A Redis client pool too small for the lock connections and the release subscription, which the store holds for
 * good, fails startup naming both properties: otherwise the keys whose connection never opened would fail every
 * operation while the others work.
 */
class PoolTooSmallForLockConnectionsConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on("redis://127.0.0.1:1")
            .overrideConfigKey("quarkus.redis.max-pool-size", "2")
            .assertException(failure -> StartupFailure.assertMentions(failure, "quarkus.redis.max-pool-size",
                    "quarkus.lock.redis.connections=2"));

    @Test
    void startupFailsNamingTheProperties() {
        Assertions.fail("the application must not start");
    }
}
