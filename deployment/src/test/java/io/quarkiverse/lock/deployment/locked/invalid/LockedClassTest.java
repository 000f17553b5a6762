package io.quarkiverse.lock.deployment.locked.invalid;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * {@code @Locked} on a class fails the build: it is for methods.
 */
class LockedClassTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidLockedMethod.failingBuild(Bean.class, "@Locked on the class",
            "LockedClassTest$Bean");

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }

    @Locked
    @ApplicationScoped
    static class Bean {
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }
}
