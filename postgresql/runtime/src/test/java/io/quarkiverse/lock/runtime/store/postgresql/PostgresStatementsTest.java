package io.quarkiverse.lock.runtime.store.postgresql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Every lock statement is short enough for the reactive client to keep it prepared, so that PostgreSQL parses and
 * plans it once per connection instead of on every call: with the default table, and with any unqualified table name
 * or one in a schema of up to 20 characters.
 */
class PostgresStatementsTest {

    private static final String LONGEST_NAME = "t".repeat(63);

    @Test
    void everyLockStatementIsKeptPreparedByTheClient() {
        for (String table : List.of("quarkus_lock", LONGEST_NAME, "s".repeat(20) + "." + LONGEST_NAME)) {
            PostgresStatements statements = new PostgresStatements(PostgresTable.parse(table));
            for (String sql : List.of(statements.acquire(false), statements.acquire(true), statements.free(),
                    statements.takeOver(), statements.renew(), statements.isHeld(), statements.listHeld(),
                    statements.grantIfAlone(), statements.releaseIfAlone(),
                    statements.sweep())) {
                assertThat(sql.length()).as("length of %s on table %s", sql, table)
                        .isLessThan(PostgresStatements.CACHED_SQL_LIMIT);
            }
        }
    }
}
