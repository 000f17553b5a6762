package io.quarkiverse.lock.deployment.redis;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A key prefix with a hash tag fails startup on the Redis store (the store puts each lock key in the tag), naming
 * quarkus.lock.key-prefix.
 */
class HashTagPrefixConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on("redis://127.0.0.1:1")
            .overrideConfigKey("quarkus.lock.key-prefix", "app:{locks}:")
            .assertException(failure -> StartupFailure.assertMentions(failure, "quarkus.lock.key-prefix",
                    "app:{locks}:"));

    @Test
    void startupFailsNamingTheProperty() {
        Assertions.fail("the application must not start");
    }
}
