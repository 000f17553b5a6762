package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testsupport.BoundedFailure;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.StoreReadiness;
import io.quarkiverse.lock.testsupport.WrongPasswordApp;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A wrong password gives a clear error, fast, in readiness and on every operation, and never reaches a log (the
 * store's own logging at DEBUG included).
 */
class PostgresWrongPasswordTest {

    private static final String WRONG_PASSWORD = "wrong-pw-7d41";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = WrongPasswordApp.of(PostgresTestApp.on(PostgresServer.shared(), "wrong_password")
            .overrideConfigKey("quarkus.datasource.password", WRONG_PASSWORD), WRONG_PASSWORD);

    @Inject
    LockRegistry locks;

    @Test
    void readinessIsDownAndOperationsFailNamingTheAuthenticationError() {
        Throwable failure = BoundedFailure.assertFailsWithin(Duration.ofSeconds(2), LockException.class,
                () -> locks.obtain("auth-order-1").acquireOnce().await().atMost(TIMEOUT), "auth-order-1",
                "password authentication failed");
        assertThat(failure.getMessage()).doesNotContain(WRONG_PASSWORD);

        assertThat(StoreReadiness.assertDown("postgresql", "password authentication failed"))
                .doesNotContain(WRONG_PASSWORD);
    }
}
