package io.quarkiverse.lock.deployment.locked.invalid;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockKey;
import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A template together with @LockKey parameters fails the build: the key would be ambiguous.
 */
class TemplateAndLockKeyTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidLockedMethod.failingBuild(Bean.class, "Bean#pay", "@LockKey");

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }

    @ApplicationScoped
    static class Bean {
        @Locked(key = "order-{id}")
        Uni<String> pay(@LockKey String id) {
            return Uni.createFrom().item(id);
        }
    }
}
