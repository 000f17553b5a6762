package io.quarkiverse.lock.deployment.locked.invalid;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A private @Locked method fails the build: interceptors do not apply to it (ArC says so first; the extension says
 * so too when quarkus.arc.fail-on-intercepted-private-method is off).
 */
class PrivateMethodTest extends InvalidLockedMethod {

    @RegisterExtension
    static final QuarkusUnitTest APP = failingBuild(Bean.class, "Bean.pay", "private");

    @ApplicationScoped
    static class Bean {
        @Locked
        private Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }

        Uni<String> callPay() {
            return pay("x");
        }
    }
}
