package io.quarkiverse.lock.runtime.store.postgresql;

import io.quarkiverse.lock.spi.SqlTableNames;

/**
 * The name of the lock table, checked to be a plain lower-case SQL identifier (optionally schema-qualified) before it
 * is ever put into SQL: a table name cannot be a bind parameter, so it is the only configured text in the statements,
 * and it appears there quoted.
 *
 * @param schema the schema, or {@code null} for the search path's
 * @param name the table's name, which is also the notification channel's
 */
public record PostgresTable(String schema, String name) {

    /** PostgreSQL's longest identifier. */
    private static final int LONGEST = 63;

    /**
     * @param configured the configured name, {@code table} or {@code schema.table}
     * @return the table
     * @throws IllegalArgumentException if it is not of that form
     */
    public static PostgresTable parse(String configured) {
        return SqlTableNames.parse("quarkus.lock.postgresql.table", configured, LONGEST, PostgresTable::new);
    }

    /**
     * @return the name as SQL, quoted: {@code "quarkus_lock"} or {@code "locks"."quarkus_lock"}
     */
    public String sql() {
        return schema == null ? '"' + name + '"' : '"' + schema + "\".\"" + name + '"';
    }
}
