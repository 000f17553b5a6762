package io.quarkiverse.lock.deployment;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * An unknown store fails the build, naming quarkus.lock.provider.
 */
class UnknownProviderConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfiguration.failingWith("quarkus.lock.provider", "zookeeper");

    @Test
    void startupFailsNamingTheProperty() {
        Assertions.fail("the application must not start");
    }
}
