package io.quarkiverse.lock.deployment.locked.invalid;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A wait given as a config expression that names a missing property, with no default, fails startup naming the
 * method and the property.
 */
class MissingPropertyInWaitTest extends InvalidLockedMethod {

    @RegisterExtension
    static final QuarkusUnitTest APP = failingBuild(Bean.class, "Bean#pay",
            "app.lock.missing-wait", "not set");

    @ApplicationScoped
    static class Bean {
        @Locked(waitTime = "${app.lock.missing-wait}")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }
}
