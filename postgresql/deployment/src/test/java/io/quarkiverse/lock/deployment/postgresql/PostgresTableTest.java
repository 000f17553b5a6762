package io.quarkiverse.lock.deployment.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.lock.runtime.store.postgresql.PostgresTable;

/**
 * The table name is the only configured text in the store's SQL: only plain lower-case identifiers, optionally
 * schema-qualified, are accepted, and they are used quoted.
 */
class PostgresTableTest {

    @Test
    void plainAndQualifiedNamesAreQuoted() {
        assertThat(PostgresTable.parse("quarkus_lock").sql()).isEqualTo("\"quarkus_lock\"");
        assertThat(PostgresTable.parse("locks.quarkus_lock").sql()).isEqualTo("\"locks\".\"quarkus_lock\"");
        assertThat(PostgresTable.parse("locks.quarkus_lock").name()).isEqualTo("quarkus_lock");
        assertThat(PostgresTable.parse("_" + "a".repeat(62)).name()).hasSize(63);
    }

    @ParameterizedTest
    @ValueSource(strings = { "", " ", "Quarkus_Lock", "quarkus-lock", "1locks", "locks;drop table x", "a.b.c", ".locks",
            "locks.", "lo\"cks", "lo'cks", "schema..table", "töchter", "lo cks" })
    void anythingElseIsRefusedNamingTheProperty(String name) {
        assertThatThrownBy(() -> PostgresTable.parse(name)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("quarkus.lock.postgresql.table");
    }

    @Test
    void aNameLongerThanPostgreSqlKeepsIsRefused() {
        assertThatThrownBy(() -> PostgresTable.parse("a".repeat(64))).isInstanceOf(IllegalArgumentException.class);
    }
}
