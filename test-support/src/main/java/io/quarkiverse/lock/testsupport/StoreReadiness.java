package io.quarkiverse.lock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import io.quarkus.arc.Arc;
import io.smallrye.health.api.AsyncHealthCheck;

/**
 * Asks the running test application's readiness check (its {@code @Readiness} {@link AsyncHealthCheck}, the lock
 * store's), as a store test does once the store is unreachable, misconfigured or back. Called from a test of a
 * {@code QuarkusUnitTest}, while the application runs.
 */
public final class StoreReadiness {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private StoreReadiness() {
    }

    /**
     * Asserts that the check answers {@code DOWN}, naming the store and an error that contains each of
     * {@code errorParts}.
     *
     * @param store the store's name, such as {@code redis}
     * @param errorParts what the error names, such as the configuration property at fault; none to only require an
     *        error
     * @return the error, for the test's further checks (such as a secret it must not hold)
     * @throws AssertionError if the check is up, names another store, has no error or one without a part
     */
    public static String assertDown(String store, String... errorParts) {
        HealthCheckResponse response = call();
        assertThat(response.getStatus()).as("readiness").isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(response.getData()).hasValueSatisfying(data -> assertThat(data).containsEntry("store", store)
                .containsKey("error"));
        String error = String.valueOf(response.getData().orElseThrow().get("error"));
        for (String part : errorParts) {
            assertThat(error).as("readiness error").contains(part);
        }
        return error;
    }

    /**
     * Asserts that the check answers {@code UP}.
     *
     * @throws AssertionError if it is down
     */
    public static void assertUp() {
        assertThat(call().getStatus()).as("readiness").isEqualTo(HealthCheckResponse.Status.UP);
    }

    private static HealthCheckResponse call() {
        AsyncHealthCheck readiness = Arc.container().select(AsyncHealthCheck.class, Readiness.Literal.INSTANCE).get();
        return readiness.call().await().atMost(TIMEOUT);
    }
}
