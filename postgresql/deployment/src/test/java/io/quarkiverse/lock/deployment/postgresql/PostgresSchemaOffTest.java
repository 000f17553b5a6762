package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresTable;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.StoreReadiness;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code create-schema=false} the store sends no DDL: while its table is missing, operations fail naming it and
 * readiness is down; once the table is created (as a migration tool would), the locks work without a restart.
 */
class PostgresSchemaOffTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = PostgresTestApp.on(PostgresServer.shared(), "migrated_later")
            .overrideConfigKey("quarkus.lock.postgresql.create-schema", "false");

    @Inject
    LockRegistry locks;

    @Test
    void aMissingTableIsReportedUntilAMigrationCreatesIt() {
        assertThatThrownBy(() -> locks.obtain("migrated-1").acquireOnce().await().atMost(TIMEOUT))
                .isInstanceOf(LockException.class)
                .hasMessageContaining("migrated-1")
                .hasMessageContaining("\"migrated_later\" does not exist");
        StoreReadiness.assertDown("postgresql");
        assertThat(PostgresServer.shared().sql("SELECT to_regclass('migrated_later') IS NULL")).isEqualTo("t");

        PostgresServer.shared().sql(PostgresLockStore.createTableStatement(PostgresTable.parse("migrated_later")));
        assertThat(locks.obtain("migrated-1").acquireOnce().await().atMost(TIMEOUT)).isTrue();
        StoreReadiness.assertUp();
    }
}
