package io.quarkiverse.lock.deployment.redis;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * No connection to carry the lock commands fails startup, naming quarkus.lock.redis.connections.
 */
class ZeroConnectionsConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on("redis://127.0.0.1:1")
            .overrideConfigKey("quarkus.lock.redis.connections", "0")
            .assertException(failure -> StartupFailure.assertMentions(failure, "quarkus.lock.redis.connections",
                    "at least 1"));

    @Test
    void startupFailsNamingTheProperty() {
        Assertions.fail("the application must not start");
    }
}
