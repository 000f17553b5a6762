package io.quarkiverse.lock.deployment.locked.invalid;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A negative wait fails the build.
 */
class NegativeWaitTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidLockedMethod.failingBuild(Bean.class, "Bean#pay", "waitTime", "zero or positive");

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }

    @ApplicationScoped
    static class Bean {
        @Locked(waitTime = "-1s")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }
}
