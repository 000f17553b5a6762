package io.quarkiverse.lock.deployment;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A zero lease fails startup, naming quarkus.lock.expire-after.
 */
class ZeroLeaseConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfiguration.failingWith("quarkus.lock.expire-after", "0s");

    @Test
    void startupFailsNamingTheProperty() {
        Assertions.fail("the application must not start");
    }
}
