package io.quarkiverse.lock.deployment.locked.invalid;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A minimum hold longer than the lease the annotation gives fails the build: the lease would free the lock
 * first.
 */
class HoldAtLeastLongerThanLeaseTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidLockedMethod.failingBuild(Bean.class, "Bean#pay", "holdAtLeast = \"2s\"",
            "longer than the lease", "expireAfter = \"1s\"");

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }

    @ApplicationScoped
    static class Bean {
        @Locked(waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s", expireAfter = "1s")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }
}
