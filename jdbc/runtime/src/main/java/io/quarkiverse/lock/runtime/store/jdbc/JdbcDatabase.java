package io.quarkiverse.lock.runtime.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.spi.SqlSchemaProblem;

/**
 * The database behind the datasource, found from what its driver reports the first time the store reaches it, and
 * what the store needs on it: its statements, transactions and decisions. Creating the tables, when the store may,
 * happens then too, once.
 */
final class JdbcDatabase {

    private static final Logger LOG = Logger.getLogger(JdbcDatabase.class);

    private final DataSource dataSource;
    private final JdbcTable table;
    private final boolean createSchema;
    private volatile Found found;
    private volatile boolean closed;

    /** What the store uses on the database it found. */
    record Found(JdbcStatements statements, JdbcTransactions transactions, JdbcLockOperations operations) {
    }

    JdbcDatabase(DataSource dataSource, JdbcTable table, boolean createSchema) {
        this.dataSource = dataSource;
        this.table = table;
        this.createSchema = createSchema;
    }

    /**
     * @param deadlineNanos when the operation's time runs out ({@link System#nanoTime()}): finding the database and
     *        creating its tables wait for no answer longer than that and a second, so an answer lost on the way
     *        fails the operations meanwhile, and the next one tries again
     * @return the database, found now if it was not yet
     * @throws SQLException if the database could not be reached in time
     * @throws IllegalStateException if it is none the store supports, naming it and them
     */
    Found get(long deadlineNanos) throws SQLException {
        Found known = found;
        if (known != null) {
            return known;
        }
        synchronized (this) {
            if (found == null) {
                found = find(deadlineNanos);
            }
            return found;
        }
    }

    /** Stops what waits on the database for the store: the ending of sessions whose statement was abandoned. */
    void close() {
        closed = true;
    }

    /**
     * @return {@code false} if the datasource is a pool of one connection at most, which a connection kept to listen
     *         would leave without any for the locks; {@code true} otherwise, or when the pool does not say
     */
    boolean leavesRoomToListen() {
        return !(dataSource instanceof AgroalDataSource pool)
                || pool.getConfiguration().connectionPoolConfiguration().maxSize() > 1;
    }

    /**
     * @return a connection of the datasource, for the caller to close
     * @throws SQLException if none could be had
     */
    Connection connect() throws SQLException {
        return dataSource.getConnection();
    }

    private Found find(long deadlineNanos) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            int networkTimeout = connection.getNetworkTimeout();
            connection.setNetworkTimeout(Runnable::run, JdbcTransaction.readMillis(deadlineNanos));
            try {
                JdbcDialect dialect = JdbcDialect.of(connection.getMetaData().getDatabaseProductName());
                JdbcStatements statements = new JdbcStatements(dialect, table);
                if (createSchema) {
                    createTables(connection, statements);
                }
                JdbcSessions sessions = new JdbcSessions(dataSource, dialect, () -> closed);
                return new Found(statements, new JdbcTransactions(dataSource, statements, sessions),
                        new JdbcLockOperations(statements));
            } finally {
                JdbcTransactions.restoreNetworkTimeout(connection, networkTimeout);
            }
        }
    }

    /**
     * Sends the idempotent DDL. Two instances creating a table at the same moment may see the database refuse the
     * second (PostgreSQL's catalog has a unique index), so a statement that fails is sent once more: the table is then
     * there, and {@code IF NOT EXISTS} passes. A failure that remains is logged, not thrown, saying what failed
     * ({@link SqlSchemaProblem}), unless the tables turn out to exist (a user without the privilege, on a database that
     * checks it before {@code IF NOT EXISTS}): the lock operations then report a missing table themselves.
     */
    private void createTables(Connection connection, JdbcStatements statements) {
        try (Statement ddl = connection.createStatement()) {
            for (String statement : statements.createTables) {
                try {
                    execute(connection, ddl, statement);
                } catch (SQLException createdMeanwhile) {
                    execute(connection, ddl, statement);
                }
            }
            LOG.debugf("The lock tables %s and %s exist", table.sql(), table.lineSql());
        } catch (SQLException e) {
            if (tablesExist(connection)) {
                LOG.debugf("The lock tables %s and %s exist; the DDL failed (%s), which the locks do not need",
                        table.sql(), table.lineSql(), e.getMessage());
                return;
            }
            LOG.warn(SqlSchemaProblem.describe("the lock tables " + table.sql() + " and " + table.lineSql(), true,
                    "quarkus.lock.jdbc.create-schema", e.getSQLState(), e.getMessage()));
        }
    }

    /**
     * @return {@code true} if both tables can be read: a database may refuse {@code CREATE TABLE IF NOT EXISTS} to a
     *         user without the privilege even when the table exists (PostgreSQL checks the privilege first)
     */
    private boolean tablesExist(Connection connection) {
        try (Statement probe = connection.createStatement()) {
            probe.executeQuery("SELECT 1 FROM " + table.sql() + " WHERE 1 = 0").close();
            probe.executeQuery("SELECT 1 FROM " + table.lineSql() + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException missing) {
            try {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
            } catch (SQLException ignored) {
                LOG.debugf("Could not roll back the probe of the lock tables (%s)", ignored.getMessage());
            }
            return false;
        }
    }

    private static void execute(Connection connection, Statement ddl, String statement) throws SQLException {
        try {
            ddl.execute(statement);
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        } catch (SQLException e) {
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
            throw e;
        }
    }
}
