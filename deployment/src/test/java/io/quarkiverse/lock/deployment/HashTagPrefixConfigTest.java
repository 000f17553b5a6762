package io.quarkiverse.lock.deployment;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A key prefix with a Redis hash tag fails startup, naming quarkus.lock.key-prefix.
 */
class HashTagPrefixConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfiguration.failingWith("quarkus.lock.key-prefix", "app:{locks}:");

    @Test
    void startupFailsNamingTheProperty() {
        Assertions.fail("the application must not start");
    }
}
