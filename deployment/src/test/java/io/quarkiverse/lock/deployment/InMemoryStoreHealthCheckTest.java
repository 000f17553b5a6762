package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.health.api.AsyncHealthCheck;

/**
 * The readiness check is there with SmallRye Health, whatever the store, and names the store it checks. (The checks
 * of a store that goes down are in the store extensions' tests.)
 */
class InMemoryStoreHealthCheckTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory();

    @Inject
    @Readiness
    AsyncHealthCheck check;

    @Test
    void upAndNamingTheStore() {
        HealthCheckResponse up = check.call().await().atMost(Duration.ofSeconds(10));
        assertThat(up.getName()).isEqualTo("Quarkus Lock store");
        assertThat(up.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(up.getData()).hasValueSatisfying(data -> assertThat(data).containsEntry("store", "in-memory"));
    }
}
