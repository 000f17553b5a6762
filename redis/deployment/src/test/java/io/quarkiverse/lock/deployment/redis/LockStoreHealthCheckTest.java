package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.health.api.AsyncHealthCheck;

/**
 * The readiness check says the Redis store is up while its server answers, and down once the server is stopped.
 */
class LockStoreHealthCheckTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.ownedBy(LockStoreHealthCheckTest.class);

    @Inject
    @Readiness
    AsyncHealthCheck check;

    @Test
    void upWhileTheStoreAnswersAndDownOnceItIsStopped() throws Exception {
        HealthCheckResponse up = check.call().await().atMost(Duration.ofSeconds(10));
        assertThat(up.getName()).isEqualTo("Quarkus Lock store");
        assertThat(up.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(up.getData()).hasValueSatisfying(data -> assertThat(data).containsEntry("store", "redis"));

        RedisServer.ownedBy(LockStoreHealthCheckTest.class).shutdown();

        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        HealthCheckResponse down = check.call().await().atMost(Duration.ofSeconds(15));
        while (down.getStatus() == HealthCheckResponse.Status.UP && System.nanoTime() < deadline) {
            Thread.sleep(100);
            down = check.call().await().atMost(Duration.ofSeconds(15));
        }
        assertThat(down.getStatus()).as("down once the server is gone").isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(down.getData()).hasValueSatisfying(data -> assertThat(data).containsKey("error"));
    }
}
