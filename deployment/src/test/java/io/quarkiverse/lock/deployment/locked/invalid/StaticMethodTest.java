package io.quarkiverse.lock.deployment.locked.invalid;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A static @Locked method fails the build: interceptors do not apply to it.
 */
class StaticMethodTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidLockedMethod.failingBuild(Bean.class, "Bean#pay", "static");

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }

    @ApplicationScoped
    static class Bean {
        @Locked
        static Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }
}
