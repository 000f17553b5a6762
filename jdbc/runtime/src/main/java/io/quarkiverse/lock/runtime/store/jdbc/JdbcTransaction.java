package io.quarkiverse.lock.runtime.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * One short transaction of the store on a connection of its own, whose every statement is bounded by what is left of
 * the operation's timeout ({@code setQueryTimeout}, which the driver enforces by cancelling the statement), and whose
 * every read of the connection is bounded too ({@code setNetworkTimeout}): an answer lost on a connection that stays
 * open (a partition, a NAT that dropped the flow, a vanished host) leaves the server nothing to cancel, and without
 * that bound the store's thread would wait for it for good, with every later operation on its key behind it. The
 * read's bound is a second longer than the statement's, so that a statement the server could still cancel ends as a
 * timeout, not as a broken connection.
 *
 * @param connection the transaction's connection, taken for this transaction alone
 * @param statements the database's statements
 * @param deadlineNanos when the operation's timeout runs out, in {@link System#nanoTime()}
 */
record JdbcTransaction(Connection connection, JdbcStatements statements, long deadlineNanos) {

    /**
     * @param sql a statement
     * @return it, prepared, with a query timeout of what is left of the operation's
     * @throws SQLTimeoutException if nothing is left
     */
    PreparedStatement prepare(String sql) throws SQLException {
        return bounded(connection.prepareStatement(sql));
    }

    private PreparedStatement bounded(PreparedStatement statement) throws SQLException {
        try {
            int seconds = remainingSeconds(deadlineNanos);
            statement.setQueryTimeout(seconds);
            boundReads(seconds);
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
        return statement;
    }

    /**
     * Begins the transaction by a statement, on a database whose transactions begin so
     * ({@link JdbcDialect#beginsExplicitly()}), its answer awaited no longer than what is left of the operation's
     * timeout and a second.
     *
     * @throws SQLTimeoutException if nothing is left
     */
    void begin() throws SQLException {
        execute(statements.begin);
    }

    /**
     * Commits, its answer awaited no longer than what is left of the operation's timeout and a second.
     *
     * @throws SQLTimeoutException if nothing is left
     */
    void commit() throws SQLException {
        if (statements.dialect.beginsExplicitly()) {
            execute(statements.commit);
        } else {
            boundReads(remainingSeconds(deadlineNanos));
            connection.commit();
        }
    }

    /**
     * Rolls back, its answer awaited no longer than the bound of the statement that failed.
     */
    void rollback() throws SQLException {
        if (statements.dialect.beginsExplicitly()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(statements.rollback);
            }
        } else {
            connection.rollback();
        }
    }

    /** Runs a statement of transaction control, which takes no query timeout on every database. */
    private void execute(String sql) throws SQLException {
        boundReads(remainingSeconds(deadlineNanos));
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private void boundReads(int statementSeconds) throws SQLException {
        connection.setNetworkTimeout(Runnable::run, readMillis(statementSeconds));
    }

    /**
     * @param deadlineNanos when the operation's time runs out ({@link System#nanoTime()})
     * @return how long a read of the connection may wait: the whole seconds left, rounded up, and one more
     * @throws SQLTimeoutException if nothing is left
     */
    static int readMillis(long deadlineNanos) throws SQLTimeoutException {
        return readMillis(remainingSeconds(deadlineNanos));
    }

    private static int readMillis(int statementSeconds) {
        return (int) Math.min(Integer.MAX_VALUE, (statementSeconds + 1) * 1000L);
    }

    /**
     * @return the database's clock now, in microseconds since the epoch
     */
    long now() throws SQLException {
        try (PreparedStatement statement = prepare(statements.now); ResultSet rows = statement.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /**
     * @param sql a statement that changes rows
     * @param arguments its bind parameters, in order
     * @return how many rows it changed
     */
    int update(String sql, Object... arguments) throws SQLException {
        try (PreparedStatement statement = prepare(sql)) {
            bind(statement, arguments);
            return statement.executeUpdate();
        }
    }

    /**
     * @param sql a query whose first column of the first row is a number
     * @param arguments its bind parameters, in order
     * @return that number
     */
    long count(String sql, Object... arguments) throws SQLException {
        try (PreparedStatement statement = prepare(sql)) {
            bind(statement, arguments);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /**
     * @param sql a statement that changes at most one row and sets the connection's generated key
     *        ({@code LAST_INSERT_ID(expr)} on MariaDB)
     * @param arguments its bind parameters, in order
     * @return the key it generated, which the server sends back with its count, or {@code null} if it changed no row
     */
    Long updatedKey(String sql, Object... arguments) throws SQLException {
        try (PreparedStatement statement = bounded(connection.prepareStatement(sql, Statement.RETURN_GENERATED_KEYS))) {
            bind(statement, arguments);
            if (statement.executeUpdate() != 1) {
                return null;
            }
            try (ResultSet keys = statement.getGeneratedKeys()) {
                if (!keys.next()) {
                    throw new SQLException("The statement changed its row but answered no generated key: " + sql);
                }
                return keys.getLong(1);
            }
        }
    }

    /**
     * @param sql a query whose first column is a number
     * @param arguments its bind parameters, in order
     * @return the number in its first row, or {@code null} if it answered no row or {@code NULL}
     */
    Long first(String sql, Object... arguments) throws SQLException {
        try (PreparedStatement statement = prepare(sql)) {
            bind(statement, arguments);
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                long number = rows.getLong(1);
                return rows.wasNull() ? null : number;
            }
        }
    }

    static void bind(PreparedStatement statement, Object... arguments) throws SQLException {
        for (int i = 0; i < arguments.length; i++) {
            Object argument = arguments[i];
            if (argument instanceof byte[] bytes) {
                statement.setBytes(i + 1, bytes);
            } else if (argument instanceof Long number) {
                statement.setLong(i + 1, number);
            } else {
                statement.setString(i + 1, argument.toString());
            }
        }
    }

    /**
     * @return the whole seconds left until the deadline, rounded up, at least 1
     * @throws SQLTimeoutException if the deadline has passed
     */
    static int remainingSeconds(long deadlineNanos) throws SQLTimeoutException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) {
            throw new SQLTimeoutException("The lock operation ran out of its time (quarkus.lock.operation-timeout)");
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toSeconds(left + 999_999_999)));
    }
}
