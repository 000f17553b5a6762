package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresTable;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.StoreReadiness;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * The locks need no more than {@code SELECT, INSERT, UPDATE, DELETE} on their table (created beforehand with the DDL
 * the guide prints) and {@code USAGE} on its schema: a role with only those, which may not create anything, acquires,
 * waits, is handed the lock and releases, on a named datasource, and readiness is up. The store finds the table and
 * sends no DDL, so nothing is logged about it.
 */
class PostgresRestrictedRoleTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final String ROLE = "lock_user";
    private static final String PASSWORD = "lock-user-pw-3f1c";

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.datasource.locks.db-kind", "postgresql")
            .overrideConfigKey("quarkus.datasource.locks.reactive.url", restrictedServer().url())
            .overrideConfigKey("quarkus.datasource.locks.username", ROLE)
            .overrideConfigKey("quarkus.datasource.locks.password", PASSWORD)
            .overrideConfigKey("quarkus.lock.postgresql.datasource", "locks")
            .overrideConfigKey("quarkus.lock.postgresql.table", "locking.restricted_locks")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records).isEmpty());

    @Inject
    LockRegistry locks;

    /** The shared server, with the schema, the table and the role made by its superuser once. */
    private static PostgresServer restrictedServer() {
        PostgresServer server = PostgresServer.shared();
        synchronized (System.class) {
            if (System.getProperty(PostgresRestrictedRoleTest.class.getName() + ".role") == null) {
                server.sql("CREATE SCHEMA locking; "
                        + PostgresLockStore.createTableStatement(PostgresTable.parse("locking.restricted_locks"))
                        + "; CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD + "'"
                        + "; REVOKE ALL ON SCHEMA public FROM " + ROLE
                        + "; GRANT USAGE ON SCHEMA locking TO " + ROLE
                        + "; GRANT SELECT, INSERT, UPDATE, DELETE ON locking.restricted_locks TO " + ROLE);
                System.setProperty(PostgresRestrictedRoleTest.class.getName() + ".role", ROLE);
            }
        }
        return server;
    }

    @Test
    void aRoleWithOnlyTheTablePrivilegesCanUseTheLocks() {
        assertThat(restrictedServer().sql("SELECT has_schema_privilege('" + ROLE + "', 'locking', 'CREATE')"))
                .isEqualTo("f");
        ReactiveDistributedLock holder = locks.obtain("restricted-order-1");
        assertThat(holder.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        ReactiveDistributedLock waiter = locks.obtain("restricted-order-1");
        assertThat(waiter.acquireOnce().await().atMost(TIMEOUT)).isFalse();
        Uni<Boolean> waiting = waiter.acquire(Duration.ofSeconds(5)).memoize().indefinitely();
        waiting.subscribe().with(ignored -> {
        });

        assertThat(holder.release().await().atMost(TIMEOUT)).isTrue();
        assertThat(waiting.await().atMost(TIMEOUT)).isTrue();
        assertThat(waiter.fencingToken().getAsLong()).isGreaterThan(0);
        assertThat(waiter.isAcquired().await().atMost(TIMEOUT)).isTrue();
        assertThat(waiter.release().await().atMost(TIMEOUT)).isTrue();
        StoreReadiness.assertUp();
        assertThat(restrictedServer().sql("SELECT count(*) FROM locking.restricted_locks WHERE owner IS NULL"))
                .isEqualTo("1");
    }
}
