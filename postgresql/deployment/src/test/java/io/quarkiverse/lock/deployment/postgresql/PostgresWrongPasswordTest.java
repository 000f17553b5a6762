package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import jakarta.inject.Inject;

import org.jboss.logmanager.ExtLogRecord;
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
 * store's own logging at DEBUG included); the startup warning says that the login failed.
 */
class PostgresWrongPasswordTest {

    private static final String WRONG_PASSWORD = "wrong-pw-7d41";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = WrongPasswordApp.of(PostgresTestApp.on(PostgresServer.shared(), "wrong_password")
            .overrideConfigKey("quarkus.datasource.password", WRONG_PASSWORD), WRONG_PASSWORD,
            PostgresWrongPasswordTest::saysTheLoginFailed);

    @Inject
    LockRegistry locks;

    /** The startup warning says that the login failed, with no advice about creating the table. */
    private static void saysTheLoginFailed(List<LogRecord> records) {
        assertThat(records).as("warnings about the lock table")
                .filteredOn(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                        && record.getLoggerName().endsWith(".PostgresSchema"))
                .singleElement().satisfies(record -> assertThat(text(record))
                        .startsWith("Could not log in to the database to check the lock table \"wrong_password\" (")
                        .contains("password authentication failed")
                        .doesNotContain("DDL")
                        .doesNotContain("create-schema"));
    }

    @Test
    void readinessIsDownAndOperationsFailNamingTheAuthenticationError() {
        Throwable failure = BoundedFailure.assertFailsWithin(Duration.ofSeconds(2), LockException.class,
                () -> locks.obtain("auth-order-1").acquireOnce().await().atMost(TIMEOUT), "auth-order-1",
                "password authentication failed");
        assertThat(failure.getMessage()).doesNotContain(WRONG_PASSWORD);

        assertThat(StoreReadiness.assertDown("postgresql", "password authentication failed"))
                .doesNotContain(WRONG_PASSWORD);
    }

    private static String text(LogRecord record) {
        return record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
    }
}
