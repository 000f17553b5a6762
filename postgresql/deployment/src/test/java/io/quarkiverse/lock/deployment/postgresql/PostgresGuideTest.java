package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresTable;

/**
 * The DDL the guide prints for Flyway and Liquibase users is the one the store sends.
 */
class PostgresGuideTest {

    @Test
    void theGuidePrintsTheTableTheStoreCreates() throws IOException {
        String guide = Files.readString(Path.of("../../docs/modules/ROOT/pages/postgresql.adoc"));
        assertThat(guide).contains(PostgresLockStore.createTableStatement(PostgresTable.parse("quarkus_lock")) + ";");
    }
}
