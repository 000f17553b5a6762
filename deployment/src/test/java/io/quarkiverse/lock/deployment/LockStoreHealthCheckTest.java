package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.test.RedisServer;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.health.api.AsyncHealthCheck;

/**
 * The readiness check says the Redis store is up while its server answers, and down once the server is stopped.
 */
class LockStoreHealthCheckTest {

    /** A server of its own, since the test stops it; its port crosses class loaders as a system property. */
    private static final String PORT = LockStoreHealthCheckTest.class.getName() + ".port";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.redis.hosts", startServer());

    @Inject
    @Readiness
    AsyncHealthCheck check;

    /** Runs once per class loader that loads this class: the second one finds the first one's server. */
    private static String startServer() {
        Integer started = Integer.getInteger(PORT);
        if (started != null) {
            return RedisServer.at(started).uri();
        }
        RedisServer server = RedisServer.start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        System.setProperty(PORT, Integer.toString(server.port()));
        return server.uri();
    }

    @Test
    void upWhileTheStoreAnswersAndDownOnceItIsStopped() throws Exception {
        HealthCheckResponse up = check.call().await().atMost(Duration.ofSeconds(10));
        assertThat(up.getName()).isEqualTo("Quarkus Lock store");
        assertThat(up.getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        assertThat(up.getData()).hasValueSatisfying(data -> assertThat(data).containsEntry("store", "redis"));

        RedisServer.at(Integer.getInteger(PORT)).shutdown();

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
