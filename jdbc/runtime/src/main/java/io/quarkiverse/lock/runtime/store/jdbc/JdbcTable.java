package io.quarkiverse.lock.runtime.store.jdbc;

import io.quarkiverse.lock.spi.SqlTableNames;

/**
 * The name of the lock table, checked to be a plain lower-case SQL identifier (optionally schema-qualified) before it
 * is ever put into SQL: a table name cannot be a bind parameter, so it is the only configured text in the statements.
 * It is used unquoted, as the guide's DDL writes it, so that every database folds it as it folds the user's own SQL.
 *
 * @param schema the schema, or {@code null} for the connection's
 * @param name the table's name
 */
public record JdbcTable(String schema, String name) {

    /** Identifiers of at most 58 characters leave room for the suffix of the line table within PostgreSQL's 63. */
    private static final int LONGEST = 58;

    /**
     * @param configured the configured name, {@code table} or {@code schema.table}
     * @return the table
     * @throws IllegalArgumentException if it is not of that form
     */
    public static JdbcTable parse(String configured) {
        return SqlTableNames.parse("quarkus.lock.jdbc.table", configured, LONGEST, JdbcTable::new);
    }

    /**
     * @return the lock table as SQL: {@code quarkus_lock} or {@code locks.quarkus_lock}
     */
    public String sql() {
        return qualified(name);
    }

    /**
     * @return the line table as SQL: {@code quarkus_lock_line}
     */
    public String lineSql() {
        return qualified(name + "_line");
    }

    /**
     * @param suffix what tells an index of the table from the others
     * @return the name of that index, unqualified: PostgreSQL creates an index in its table's schema
     */
    String index(String suffix) {
        return name + "_" + suffix;
    }

    private String qualified(String table) {
        return schema == null ? table : schema + "." + table;
    }
}
