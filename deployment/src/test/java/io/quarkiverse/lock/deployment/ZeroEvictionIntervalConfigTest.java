package io.quarkiverse.lock.deployment;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A zero eviction interval fails startup, naming quarkus.lock.expire-evict-idle.
 */
class ZeroEvictionIntervalConfigTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidConfiguration.failingWith("quarkus.lock.expire-evict-idle", "0s");

    @Test
    void startupFailsNamingTheProperty() {
        Assertions.fail("the application must not start");
    }
}
