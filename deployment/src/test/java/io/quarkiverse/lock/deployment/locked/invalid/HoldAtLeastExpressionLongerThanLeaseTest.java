package io.quarkiverse.lock.deployment.locked.invalid;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A minimum hold given as a config expression that resolves to more than the lease fails startup naming the
 * method and the property.
 */
class HoldAtLeastExpressionLongerThanLeaseTest extends InvalidLockedMethod {

    @RegisterExtension
    static final QuarkusUnitTest APP = failingBuild(Bean.class, "Bean#pay", "holdAtLeast",
            "app.lock.hold", "longer than the lease", "before the minimum hold ends")
            .overrideConfigKey("app.lock.hold", "3s");

    @ApplicationScoped
    static class Bean {
        @Locked(waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "${app.lock.hold}", expireAfter = "2s")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }
}
