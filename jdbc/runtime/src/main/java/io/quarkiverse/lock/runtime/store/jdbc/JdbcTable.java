package io.quarkiverse.lock.runtime.store.jdbc;

import java.util.regex.Pattern;

/**
 * The name of the lock table, checked to be a plain lower-case SQL identifier (optionally schema-qualified) before it
 * is ever put into SQL: a table name cannot be a bind parameter, so it is the only configured text in the statements.
 * It is used unquoted, as the guide's DDL writes it, so that every database folds it as it folds the user's own SQL.
 *
 * @param schema the schema, or {@code null} for the connection's
 * @param name the table's name
 */
public record JdbcTable(String schema, String name) {

    /** 58 characters leave room for the suffix of the line table within PostgreSQL's 63. */
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,57}");

    /**
     * @param configured the configured name, {@code table} or {@code schema.table}
     * @return the table
     * @throws IllegalArgumentException if it is not of that form
     */
    public static JdbcTable parse(String configured) {
        String trimmed = configured.trim();
        int dot = trimmed.indexOf('.');
        String schema = dot < 0 ? null : trimmed.substring(0, dot);
        String name = dot < 0 ? trimmed : trimmed.substring(dot + 1);
        if ((schema != null && !IDENTIFIER.matcher(schema).matches()) || !IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("quarkus.lock.jdbc.table must be a lower-case SQL identifier "
                    + "([a-z_][a-z0-9_]*, at most 58 characters), optionally qualified by a schema of the same form, "
                    + "but is '" + configured + "'");
        }
        return new JdbcTable(schema, name);
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
