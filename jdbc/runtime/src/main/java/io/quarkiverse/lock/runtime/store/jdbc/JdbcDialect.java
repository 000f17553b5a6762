package io.quarkiverse.lock.runtime.store.jdbc;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * What differs between the databases the JDBC store supports: how each reads its own clock, the column types of the
 * lock tables, and which errors are a conflict worth trying again. Everything else is the same SQL on each.
 */
public enum JdbcDialect {

    /**
     * MariaDB, and MySQL through the same SQL. {@code UTC_TIMESTAMP(6)} is {@code CURRENT_TIMESTAMP(6)} in UTC, so the
     * epoch count does not depend on the session's time zone. InnoDB, for row locks; owners compare byte for byte.
     */
    MARIADB("MariaDB", "TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))", "BINARY(32)", "BLOB",
            "VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin", " ENGINE=InnoDB"),
    /** PostgreSQL: {@code clock_timestamp()} is the time of the statement, not of the transaction. */
    POSTGRESQL("PostgreSQL", "CAST(floor(extract(epoch FROM clock_timestamp()) * 1000000) AS BIGINT)", "BYTEA",
            "BYTEA", "VARCHAR(255)", ""),
    /** H2, in process or as a server. */
    H2("H2", "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP(6)) * 1000000 AS BIGINT)", "BINARY(32)", "VARBINARY",
            "VARCHAR(255)", "");

    /** SQLSTATE of a serialization failure, and of a deadlock on MariaDB and H2. */
    private static final String SERIALIZATION_FAILURE = "40001";
    /** SQLSTATE of a deadlock on PostgreSQL. */
    private static final String DEADLOCK = "40P01";
    /** MariaDB's and MySQL's error code of a deadlock. */
    private static final int MARIADB_DEADLOCK = 1213;
    /** H2's SQLSTATE of a lock it waited for longer than its {@code LOCK_TIMEOUT}. */
    private static final String H2_LOCK_TIMEOUT = "HYT00";
    /** The SQLSTATE class of an integrity constraint violation: a row another transaction inserted first. */
    private static final String INTEGRITY_VIOLATION = "23";

    private final String product;
    private final String nowMicros;
    private final String idType;
    private final String keyType;
    private final String ownerType;
    private final String tableOptions;

    JdbcDialect(String product, String nowMicros, String idType, String keyType, String ownerType,
            String tableOptions) {
        this.product = product;
        this.nowMicros = nowMicros;
        this.idType = idType;
        this.keyType = keyType;
        this.ownerType = ownerType;
        this.tableOptions = tableOptions;
    }

    /**
     * @param productName what the driver reports ({@code DatabaseMetaData.getDatabaseProductName()})
     * @return the dialect of that database
     * @throws IllegalStateException naming the database found and the supported ones, if it is none of them
     */
    public static JdbcDialect of(String productName) {
        String name = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        if (name.contains("mariadb") || name.contains("mysql")) {
            return MARIADB;
        }
        if (name.contains("postgresql")) {
            return POSTGRESQL;
        }
        if (name.equals("h2")) {
            return H2;
        }
        throw new IllegalStateException("The JDBC lock store does not support the database '" + productName
                + "': it supports " + supported() + ". Choose a datasource of one of them with "
                + "quarkus.lock.jdbc.datasource, or another lock store with quarkus.lock.provider");
    }

    /**
     * @return the databases the store supports, for messages
     */
    public static String supported() {
        return "MariaDB, MySQL (through the MariaDB dialect), PostgreSQL and H2";
    }

    /**
     * @return the database's name, for messages
     */
    public String product() {
        return product;
    }

    /**
     * @return an SQL expression of the database's clock now, in microseconds since the epoch
     */
    String nowMicros() {
        return nowMicros;
    }

    /**
     * @return {@code true} if the store begins and ends its transactions by statements on a connection left in
     *         auto-commit, as on MariaDB, whose driver sends a statement for every change of auto-commit (two round
     *         trips per transaction, against one for {@code START TRANSACTION}); {@code false} if it turns auto-commit
     *         off, as the PostgreSQL and H2 drivers begin a transaction with its first statement at no cost
     */
    boolean beginsExplicitly() {
        return this == MARIADB;
    }

    /**
     * @param update an {@code UPDATE} of one lock row that sets its {@code token}
     * @return a statement that runs the update and answers the token it set, in the same round trip: a query answering
     *         it in one row, or no row if it changed none ({@code RETURNING} on PostgreSQL, a data change delta table on
     *         H2); on MariaDB, which has neither, the update itself, whose token is its generated key
     *         ({@link #keptToken}, {@link #tokenIsGeneratedKey})
     */
    String returningToken(String update) {
        return switch (this) {
            case POSTGRESQL -> update + " RETURNING token";
            case H2 -> "SELECT token FROM FINAL TABLE (" + update + ")";
            case MARIADB -> update;
        };
    }

    /**
     * @param token the SQL expression of a new token
     * @return it as the {@code SET} of an update that {@link #returningToken} runs: on MariaDB, passed through
     *         {@code LAST_INSERT_ID(expr)}, which the server sends back in the update's OK packet, as the driver's
     *         generated key, with no second statement
     */
    String keptToken(String token) {
        return this == MARIADB ? "LAST_INSERT_ID(" + token + ")" : token;
    }

    /**
     * @return {@code true} if the token of {@link #returningToken} comes back as the update's generated key (MariaDB),
     *         {@code false} if as the row of a query
     */
    boolean tokenIsGeneratedKey() {
        return this == MARIADB;
    }

    /**
     * @param failure a failed statement or commit
     * @return {@code true} if the transaction lost a race that trying it again can win: a serialization failure, a
     *         deadlock, a lock wait H2 gave up on, or the lock row another transaction inserted first
     */
    boolean isConflict(SQLException failure) {
        for (SQLException e = failure; e != null; e = e.getNextException()) {
            String state = e.getSQLState();
            if (state != null && (state.equals(SERIALIZATION_FAILURE) || state.equals(DEADLOCK)
                    || state.startsWith(INTEGRITY_VIOLATION) || (this == H2 && state.equals(H2_LOCK_TIMEOUT)))) {
                return true;
            }
            if (this == MARIADB && e.getErrorCode() == MARIADB_DEADLOCK) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param table the lock table
     * @return the DDL of the lock tables and their index, each statement idempotent, in the order to run them
     */
    public List<String> createTables(JdbcTable table) {
        String index = this == MARIADB ? ",\n    INDEX " + table.index("handed") + " (handed_at)" : "";
        String lockTable = """
                CREATE TABLE IF NOT EXISTS %s (
                    lock_id    %s NOT NULL PRIMARY KEY,
                    lock_key   %s NOT NULL,
                    owner      %s,
                    token      BIGINT NOT NULL,
                    held_until BIGINT,
                    handed_at  BIGINT,
                    queued     SMALLINT NOT NULL,
                    changed_at BIGINT NOT NULL%s
                )%s""".formatted(table.sql(), idType, keyType, ownerType, index, tableOptions);
        String lineTable = """
                CREATE TABLE IF NOT EXISTS %s (
                    lock_id      %s NOT NULL,
                    owner        %s NOT NULL,
                    place        BIGINT NOT NULL,
                    place_until  BIGINT NOT NULL,
                    lease_millis BIGINT NOT NULL,
                    PRIMARY KEY (lock_id, owner)
                )%s""".formatted(table.lineSql(), idType, ownerType, tableOptions);
        if (this == MARIADB) {
            return List.of(lockTable, lineTable);
        }
        return List.of(lockTable, lineTable, "CREATE INDEX IF NOT EXISTS " + table.index("handed") + " ON "
                + table.sql() + " (handed_at)");
    }
}
