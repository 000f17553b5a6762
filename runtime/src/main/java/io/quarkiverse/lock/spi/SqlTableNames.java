package io.quarkiverse.lock.spi;

import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * Reads the configured name of a store's table, {@code table} or {@code schema.table}, checked to be plain lower-case
 * SQL identifiers before it is ever put into SQL: a table name cannot be a bind parameter, so it is the only
 * configured text in a store's statements.
 */
public final class SqlTableNames {

    private SqlTableNames() {
    }

    /**
     * @param <T> the store's table
     * @param property the configuration property that names the table, for the error
     * @param configured the configured name, {@code table} or {@code schema.table}
     * @param longest how many characters each identifier may have at most
     * @param table makes the store's table of the schema ({@code null} when the name has none) and the name
     * @return the table
     * @throws IllegalArgumentException if the name is not of that form, naming the property and the value
     */
    public static <T> T parse(String property, String configured, int longest, BiFunction<String, String, T> table) {
        Pattern identifier = Pattern.compile("[a-z_][a-z0-9_]{0," + (longest - 1) + "}");
        String trimmed = configured.trim();
        int dot = trimmed.indexOf('.');
        String schema = dot < 0 ? null : trimmed.substring(0, dot);
        String name = dot < 0 ? trimmed : trimmed.substring(dot + 1);
        if ((schema != null && !identifier.matcher(schema).matches()) || !identifier.matcher(name).matches()) {
            throw new IllegalArgumentException(property + " must be a lower-case SQL identifier ([a-z_][a-z0-9_]*, at "
                    + "most " + longest + " characters), optionally qualified by a schema of the same form, but is '"
                    + configured + "'");
        }
        return table.apply(schema, name);
    }
}
