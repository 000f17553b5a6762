package io.quarkiverse.lock.deployment;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A negative wait fails startup, naming quarkus.lock.wait-timeout.
 */
class NegativeWaitConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfiguration.failingWith("quarkus.lock.wait-timeout", "-1s");

    @Test
    void startupFailsNamingTheProperty() {
        Assertions.fail("the application must not start");
    }
}
