package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * PostgreSQL not reachable when the application starts (nothing listens on the datasource's port): the startup
 * warning says that the store could not connect, and gives no advice about creating the table, which the store creates
 * itself once the database answers.
 */
class PostgresDownAtStartupTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(PostgresServer.shared(), "down_at_startup")
            .overrideConfigKey("quarkus.datasource.reactive.url", "postgresql://127.0.0.1:1/postgres")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && record.getLoggerName().endsWith(".PostgresSchema"))
            .assertLogRecords(PostgresDownAtStartupTest::saysItCouldNotConnect);

    @Inject
    LockRegistry locks;

    @Test
    void operationsFailWhileTheDatabaseIsDown() {
        assertThatThrownBy(() -> locks.obtain("down-1").acquireOnce().await().atMost(TIMEOUT))
                .isInstanceOf(LockException.class).hasMessageContaining("down-1");
    }

    private static void saysItCouldNotConnect(List<LogRecord> records) {
        assertThat(records).as("warnings about the lock table").singleElement().satisfies(record -> assertThat(
                text(record))
                .startsWith("Could not connect to the database to check the lock table \"down_at_startup\" (")
                .contains("Connection refused")
                .doesNotContain("DDL")
                .doesNotContain("create-schema"));
    }

    private static String text(LogRecord record) {
        return record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
    }
}
