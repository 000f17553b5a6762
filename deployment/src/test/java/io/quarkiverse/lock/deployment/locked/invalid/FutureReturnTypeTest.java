package io.quarkiverse.lock.deployment.locked.invalid;

import java.util.concurrent.Future;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A method returning a plain Future fails the build: the lock would be released before the work ends.
 */
class FutureReturnTypeTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidLockedMethod.failingBuild(Bean.class, "Bean#pay", "java.util.concurrent.Future",
            "not supported");

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }

    @ApplicationScoped
    static class Bean {
        @Locked
        Future<String> pay(String id) {
            return null;
        }
    }
}
