package io.quarkiverse.lock.runtime.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The database is found from the product name its driver reports; any other database is refused with a message
 * naming it and the supported ones.
 */
class JdbcDialectTest {

    @Test
    void theSupportedDatabasesAreFoundByTheirDriversProductNames() {
        assertThat(JdbcDialect.of("MariaDB")).isEqualTo(JdbcDialect.MARIADB);
        assertThat(JdbcDialect.of("MySQL")).isEqualTo(JdbcDialect.MARIADB);
        assertThat(JdbcDialect.of("PostgreSQL")).isEqualTo(JdbcDialect.POSTGRESQL);
        assertThat(JdbcDialect.of("H2")).isEqualTo(JdbcDialect.H2);
    }

    @Test
    void anotherDatabaseIsRefusedNamingItAndTheSupportedOnes() {
        assertThatThrownBy(() -> JdbcDialect.of("Apache Derby")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'Apache Derby'")
                .hasMessageContaining("MariaDB, MySQL (through the MariaDB dialect), PostgreSQL and H2");
    }

    @Test
    void aTableNameIsAPlainIdentifier() {
        assertThat(JdbcTable.parse("locks.quarkus_lock").lineSql()).isEqualTo("locks.quarkus_lock_line");
        assertThatThrownBy(() -> JdbcTable.parse("quarkus_lock; DROP TABLE x"))
                .hasMessageContaining("quarkus.lock.jdbc.table");
    }
}
