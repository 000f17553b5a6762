package io.quarkiverse.lock.deployment.locked.invalid;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A minimum hold longer than the configured default lease ({@code quarkus.lock.expire-after}, known only at
 * runtime) fails startup naming the method and the property.
 */
class HoldAtLeastLongerThanConfiguredLeaseTest extends InvalidLockedMethod {

    @RegisterExtension
    static final QuarkusUnitTest APP = failingBuild(Bean.class, "Bean#pay", "holdAtLeast",
            "longer than the lease", "quarkus.lock.expire-after")
            .overrideConfigKey("quarkus.lock.expire-after", "1s");

    @ApplicationScoped
    static class Bean {
        @Locked(waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }
}
