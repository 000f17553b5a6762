package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testsupport.BoundedFailure;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.health.api.AsyncHealthCheck;

/**
 * A wrong password gives a clear error, fast, in readiness and on every operation, and never reaches a log (the
 * store's own logging at DEBUG included).
 */
class PostgresWrongPasswordTest {

    private static final String WRONG_PASSWORD = "wrong-pw-7d41";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(PostgresServer.shared(), "wrong_password")
            .overrideConfigKey("quarkus.datasource.password", WRONG_PASSWORD)
            .overrideConfigKey("quarkus.lock.operation-timeout", "2s")
            .overrideConfigKey("quarkus.log.category.\"io.quarkiverse.lock\".level", "DEBUG")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.FINE.intValue())
            .assertLogRecords(records -> assertThat(records)
                    .noneMatch(record -> String.valueOf(record.getMessage()).contains(WRONG_PASSWORD)
                            || String.valueOf(record.getThrown()).contains(WRONG_PASSWORD)
                            || Arrays.toString(record.getParameters()).contains(WRONG_PASSWORD)));

    @Inject
    LockRegistry locks;

    @Inject
    @Readiness
    AsyncHealthCheck readiness;

    @Test
    void readinessIsDownAndOperationsFailNamingTheAuthenticationError() {
        Throwable failure = BoundedFailure.assertFailsWithin(Duration.ofSeconds(2), LockException.class,
                () -> locks.obtain("auth-order-1").acquireOnce().await().atMost(TIMEOUT), "auth-order-1",
                "password authentication failed");
        assertThat(failure.getMessage()).doesNotContain(WRONG_PASSWORD);

        HealthCheckResponse health = readiness.call().await().atMost(TIMEOUT);
        assertThat(health.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(health.getData()).hasValueSatisfying(data -> assertThat(String.valueOf(data.get("error")))
                .contains("password authentication failed")
                .doesNotContain(WRONG_PASSWORD));
    }
}
