package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcDialect;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStore;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcTable;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A PostgreSQL user with only {@code SELECT, INSERT, UPDATE, DELETE} on the lock tables, created beforehand: PostgreSQL
 * refuses it {@code CREATE TABLE IF NOT EXISTS} (it checks the privilege first), yet the tables exist, so the store logs
 * no warning telling to create them, and the locks work.
 */
class PostgresJdbcRestrictedRoleTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String ROLE = "jdbc_lock_user";
    private static final String PASSWORD = "jdbc-lock-user-pw-5a90";
    private static final String TABLE = "jdbclocking.restricted_locks";

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.postgres("restricted_locks")
            .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:" + restrictedServer().url())
            .overrideConfigKey("quarkus.datasource.username", ROLE)
            .overrideConfigKey("quarkus.datasource.password", PASSWORD)
            .overrideConfigKey("quarkus.lock.jdbc.table", TABLE)
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records).as("warnings of the locks")
                    .extracting(LogRecord::getMessage).isEmpty());

    @Inject
    LockRegistry locks;

    /** The shared server, with the schema, the tables and the role made by its superuser once. */
    private static PostgresServer restrictedServer() {
        PostgresServer server = PostgresServer.shared();
        synchronized (System.class) {
            if (System.getProperty(PostgresJdbcRestrictedRoleTest.class.getName() + ".role") == null) {
                JdbcTable table = JdbcTable.parse(TABLE);
                server.sql("CREATE SCHEMA jdbclocking; "
                        + String.join("; ", JdbcLockStore.createTableStatements(JdbcDialect.POSTGRESQL, table))
                        + "; CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD + "'"
                        + "; REVOKE ALL ON SCHEMA public FROM " + ROLE
                        + "; GRANT USAGE ON SCHEMA jdbclocking TO " + ROLE
                        + "; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA jdbclocking TO " + ROLE);
                System.setProperty(PostgresJdbcRestrictedRoleTest.class.getName() + ".role", ROLE);
            }
        }
        return server;
    }

    @Test
    void aRoleWithOnlyTheTablePrivilegesCanUseTheLocks() {
        assertThat(restrictedServer().sql("SELECT has_schema_privilege('" + ROLE + "', 'jdbclocking', 'CREATE')"))
                .isEqualTo("f");
        ReactiveDistributedLock holder = locks.obtain("jdbc-restricted-1");
        assertThat(holder.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(locks.obtain("jdbc-restricted-1").acquireOnce().await().atMost(TIMEOUT)).isFalse();
        assertThat(holder.release().await().atMost(TIMEOUT)).isTrue();
    }
}
