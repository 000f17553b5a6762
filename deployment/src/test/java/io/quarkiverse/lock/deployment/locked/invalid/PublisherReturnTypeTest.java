package io.quarkiverse.lock.deployment.locked.invalid;

import java.util.concurrent.Flow;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A method returning a Publisher that is no Multi fails the build.
 */
class PublisherReturnTypeTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidLockedMethod.failingBuild(Bean.class, "Bean#pay", "Publisher", "not supported");

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }

    @ApplicationScoped
    static class Bean {
        @Locked
        Flow.Publisher<String> pay(String id) {
            return null;
        }
    }
}
