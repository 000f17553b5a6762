package io.quarkiverse.lock.deployment.locked.invalid;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Skipping a method that returns a primitive fails the build: a skipped call has no value to return.
 */
class SkipOnPrimitiveTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidLockedMethod.failingBuild(Bean.class, "Bean#count", "SKIP", "primitive");

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }

    @ApplicationScoped
    static class Bean {
        @Locked(whenBusy = Locked.WhenBusy.SKIP)
        int count(String id) {
            return 1;
        }
    }
}
