package io.quarkiverse.lock.runtime.store.postgresql;

import java.util.regex.Pattern;

/**
 * The name of the lock table, checked to be a plain lower-case SQL identifier (optionally schema-qualified) before it
 * is ever put into SQL: a table name cannot be a bind parameter, so it is the only configured text in the statements,
 * and it appears there quoted.
 *
 * @param schema the schema, or {@code null} for the search path's
 * @param name the table's name, which is also the notification channel's
 */
public record PostgresTable(String schema, String name) {

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

    /**
     * @param configured the configured name, {@code table} or {@code schema.table}
     * @return the table
     * @throws IllegalArgumentException if it is not of that form
     */
    public static PostgresTable parse(String configured) {
        String trimmed = configured.trim();
        int dot = trimmed.indexOf('.');
        String schema = dot < 0 ? null : trimmed.substring(0, dot);
        String name = dot < 0 ? trimmed : trimmed.substring(dot + 1);
        if ((schema != null && !IDENTIFIER.matcher(schema).matches()) || !IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("quarkus.lock.postgresql.table must be a lower-case SQL identifier "
                    + "([a-z_][a-z0-9_]*, at most 63 characters), optionally qualified by a schema of the same form, "
                    + "but is '" + configured + "'");
        }
        return new PostgresTable(schema, name);
    }

    /**
     * @return the name as SQL, quoted: {@code "quarkus_lock"} or {@code "locks"."quarkus_lock"}
     */
    public String sql() {
        return schema == null ? '"' + name + '"' : '"' + schema + "\".\"" + name + '"';
    }
}
