package io.quarkiverse.lock.deployment.redis;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A client name no Redis client is configured for fails startup, naming the property and the missing client.
 */
class UnknownRedisClientConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.shared()
            .overrideConfigKey("quarkus.lock.redis.client-name", "nowhere")
            .assertException(failure -> StartupFailure.assertMentions(failure,
                    "quarkus.lock.redis.client-name", "nowhere"));

    @Test
    void startupFailsNamingTheProperty() {
        Assertions.fail("the application must not start");
    }
}
