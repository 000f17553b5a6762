package io.quarkiverse.lock.deployment.leadership;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.BooleanSupplier;

import org.assertj.core.api.Assertions;

import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An application on the in-memory store that declares leadership group {@value #GROUP}, with a short lease so the
 * tests run fast: lease {@value #LEASE_MILLIS} ms, renewals every {@value #RENEW_MILLIS} ms, margin
 * {@value #MARGIN_MILLIS} ms.
 */
final class LeadershipTestApplication {

    static final String GROUP = "orders";
    static final long LEASE_MILLIS = 600;
    static final long RENEW_MILLIS = 150;
    static final long MARGIN_MILLIS = 150;

    private LeadershipTestApplication() {
    }

    static QuarkusUnitTest withGroup(Class<?>... classes) {
        Class<?>[] all = Arrays.copyOf(classes, classes.length + 1);
        all[classes.length] = LeadershipTestApplication.class;
        return LockTestApplication.inMemory(all)
                .overrideConfigKey("quarkus.lock.leadership." + GROUP + ".enabled", "true")
                .overrideConfigKey("quarkus.lock.leadership." + GROUP + ".lease", LEASE_MILLIS + "ms")
                .overrideConfigKey("quarkus.lock.leadership." + GROUP + ".renew-interval", RENEW_MILLIS + "ms")
                .overrideConfigKey("quarkus.lock.leadership." + GROUP + ".safety-margin", MARGIN_MILLIS + "ms");
    }

    /** Waits up to five seconds for a condition, and fails if it stays false. */
    static void eventually(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                Assertions.fail("still not true after 5 s: " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
