package io.quarkiverse.lock.deployment.redis;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A named client whose name holds a dot is configured under its quoted name
 * ({@code quarkus.redis."locks.main".max-pool-size}): the pool check reads it there, so a pool too small fails startup
 * naming the quoted property, as it does for any other client.
 */
class PoolTooSmallOnADottedClientNameConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on("redis://127.0.0.1:1")
            .overrideConfigKey("quarkus.redis.\"locks.main\".hosts", "redis://127.0.0.1:1")
            .overrideConfigKey("quarkus.redis.\"locks.main\".max-pool-size", "2")
            .overrideConfigKey("quarkus.lock.redis.client-name", "locks.main")
            .assertException(failure -> StartupFailure.assertMentions(failure,
                    "quarkus.redis.\"locks.main\".max-pool-size", "quarkus.lock.redis.connections=2"));

    @Test
    void startupFailsNamingTheProperties() {
        Assertions.fail("the application must not start");
    }
}
