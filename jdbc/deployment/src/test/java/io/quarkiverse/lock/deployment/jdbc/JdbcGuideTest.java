package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.quarkiverse.lock.runtime.store.jdbc.JdbcDialect;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStore;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcTable;

/**
 * The DDL the guide prints for Flyway and Liquibase users, for each database, is the one the store sends, which the
 * contract suites run on each database.
 */
class JdbcGuideTest {

    @ParameterizedTest
    @EnumSource(JdbcDialect.class)
    void theGuidePrintsTheTablesTheStoreCreates(JdbcDialect dialect) throws IOException {
        String guide = Files.readString(Path.of("../../docs/modules/ROOT/pages/jdbc.adoc"));
        assertThat(guide).contains(String.join(";\n",
                JdbcLockStore.createTableStatements(dialect, JdbcTable.parse("quarkus_lock"))) + ";");
    }
}
