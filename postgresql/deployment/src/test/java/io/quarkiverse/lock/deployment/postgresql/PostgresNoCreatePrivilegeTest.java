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
 * A database user that may not create the missing lock table (no {@code CREATE} on its schema, SQLSTATE 42501): the
 * startup warning says that this user may not create it, and how to create it otherwise.
 */
class PostgresNoCreatePrivilegeTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String ROLE = "no_create_user";
    private static final String PASSWORD = "no-create-pw-81e2";

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(serverWithRole(), "nocreate.no_create_locks")
            .overrideConfigKey("quarkus.datasource.username", ROLE)
            .overrideConfigKey("quarkus.datasource.password", PASSWORD)
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && record.getLoggerName().endsWith(".PostgresSchema"))
            .assertLogRecords(PostgresNoCreatePrivilegeTest::saysTheUserMayNotCreateTheTable);

    @Inject
    LockRegistry locks;

    /** The shared server, with a schema on which the role has {@code USAGE} but not {@code CREATE}, made once. */
    private static PostgresServer serverWithRole() {
        PostgresServer server = PostgresServer.shared();
        synchronized (System.class) {
            if (System.getProperty(PostgresNoCreatePrivilegeTest.class.getName() + ".role") == null) {
                server.sql("CREATE SCHEMA nocreate; CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD + "'"
                        + "; REVOKE ALL ON SCHEMA public FROM " + ROLE
                        + "; GRANT USAGE ON SCHEMA nocreate TO " + ROLE);
                System.setProperty(PostgresNoCreatePrivilegeTest.class.getName() + ".role", ROLE);
            }
        }
        return server;
    }

    @Test
    void operationsFailWhileTheTableIsMissing() {
        assertThat(serverWithRole().sql("SELECT has_schema_privilege('" + ROLE + "', 'nocreate', 'CREATE')"))
                .isEqualTo("f");
        assertThatThrownBy(() -> locks.obtain("no-create-1").acquireOnce().await().atMost(TIMEOUT))
                .isInstanceOf(LockException.class).hasMessageContaining("no-create-1");
    }

    private static void saysTheUserMayNotCreateTheTable(List<LogRecord> records) {
        assertThat(records).as("warnings about the lock table").singleElement().satisfies(record -> {
            assertThat(text(record))
                    .startsWith("Could not create the lock table ")
                    .contains("no_create_locks")
                    .contains(": the datasource's user may not create tables (")
                    .contains("permission denied for schema nocreate")
                    .contains("DDL in the guide")
                    .contains("quarkus.lock.postgresql.create-schema=false");
        });
    }

    private static String text(LogRecord record) {
        return record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
    }
}
