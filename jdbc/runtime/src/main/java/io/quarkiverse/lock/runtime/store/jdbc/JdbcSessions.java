package io.quarkiverse.lock.runtime.store.jdbc;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.List;
import java.util.function.BooleanSupplier;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

/**
 * Ends on the server the session of a connection whose statement has an unknown outcome (it timed out, or the
 * connection broke before the answer came), and waits until the server no longer has it: only then can the statement
 * no longer take effect. Its bytes may still be on their way (held on a lossy path, retransmitted after the client
 * gave up, kept by a middlebox); reaching a session that is gone, they do nothing, where they would otherwise run,
 * and a grant taken back before would then be made afterwards, by nobody. The store runs this on the statement's own
 * thread, before its operation ends, so the next operation on the key (the take-back) runs only after.
 * <p>
 * MariaDB: {@code KILL CONNECTION} of the connection's thread id, then {@code information_schema.PROCESSLIST} until the
 * thread is gone (a user may kill and see its own threads). PostgreSQL: {@code pg_terminate_backend} of the backend's
 * process id, a session of the same user on the same database only, then {@code pg_stat_activity} until it is gone.
 * Each round runs on a connection of the datasource, bounded by {@link #ROUND_SECONDS}; rounds repeat, with growing
 * pauses, until one finds the session gone, the store closes, or {@link #GIVE_UP_MILLIS} passed (as long as a
 * take-back of a lock without lease is tried): the server may be unreachable meanwhile, and the key's operations wait,
 * as they must. The ids are read from the driver's connection ({@code getThreadId()}, {@code getBackendPID()}) without
 * a round trip; a driver that does not tell (MySQL's own, H2's) leaves the session to end with its connection.
 */
final class JdbcSessions {

    /** The drivers' types through which the ids are read, by name: kept for reflection in a native image. */
    static final List<String> DRIVER_TYPES = List.of("org.mariadb.jdbc.Connection", "org.postgresql.PGConnection");

    private static final Logger LOG = Logger.getLogger(JdbcSessions.class);
    private static final int ROUND_SECONDS = 2;
    private static final long FIRST_PAUSE_MILLIS = 20;
    private static final long LONGEST_PAUSE_MILLIS = 1_000;
    private static final long GIVE_UP_MILLIS = 600_000;
    /** MariaDB's error of a thread id it does not know: the session is gone. */
    private static final int MARIADB_NO_SUCH_THREAD = 1094;
    /** SQLSTATE of a privilege the user lacks, on PostgreSQL. */
    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    /** MariaDB's error of a thread the user may not kill. */
    private static final int MARIADB_KILL_DENIED = 1095;
    private static final String PG_OWN_SESSION = "pid = %d AND usename = session_user AND datname = current_database()";

    private final DataSource dataSource;
    private final JdbcDialect dialect;
    private final BooleanSupplier closed;
    private volatile boolean warned;
    private volatile Method idMethod;
    private volatile boolean idMethodFound;

    /**
     * @param dataSource the datasource whose connections run the rounds
     * @param dialect the database
     * @param closed whether the store closed, which stops the rounds
     */
    JdbcSessions(DataSource dataSource, JdbcDialect dialect, BooleanSupplier closed) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.closed = closed;
    }

    /**
     * @param failure what a statement or its commit threw
     * @return {@code true} if the server may have run the statement, or may still run it: the statement timed out, or
     *         the connection broke; {@code false} if the server answered with an error, which ended the statement
     */
    static boolean outcomeUnknown(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause()) {
            if (e instanceof SQLTimeoutException || e instanceof SQLRecoverableException
                    || e instanceof SQLNonTransientConnectionException || e instanceof SQLTransientConnectionException) {
                return true;
            }
            if (e instanceof SQLException sql && sql.getSQLState() != null && sql.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Ends a session and returns once the server no longer has it.
     *
     * @param id the server's id of the session of a connection whose statement's outcome is unknown, as
     *        {@link #idOf} read it before the statement; nothing is done if it is negative (the driver did not tell)
     */
    void end(long id) {
        if (id < 0) {
            return;
        }
        long giveUp = System.nanoTime() + GIVE_UP_MILLIS * 1_000_000;
        long pause = FIRST_PAUSE_MILLIS;
        while (!closed.getAsBoolean()) {
            try {
                if (endRound(id)) {
                    return;
                }
            } catch (SQLException e) {
                if (refused(e)) {
                    warnOnce(id, e);
                    return;
                }
                LOG.debugf("Could not end the lock store's session %d yet (%s); trying again", id, e.getMessage());
            }
            if (System.nanoTime() - giveUp >= 0) {
                LOG.errorf("Could not end the lock store's session %d within %d minutes: a lock statement it "
                        + "carried may still take effect", id, GIVE_UP_MILLIS / 60_000);
                return;
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            pause = Math.min(LONGEST_PAUSE_MILLIS, pause * 2);
        }
    }

    /**
     * @param connection a connection of the datasource, maybe wrapped by the pool, before it carries a statement
     * @return the server's id of the connection's session, read from the driver without a round trip, or {@code -1}
     *         if the driver does not tell
     */
    long idOf(Connection connection) {
        Method id = idMethod(connection);
        if (id == null) {
            return -1;
        }
        try {
            return ((Number) id.invoke(connection.unwrap(id.getDeclaringClass()))).longValue();
        } catch (ReflectiveOperationException | SQLException | RuntimeException e) {
            LOG.debugf("The JDBC driver does not tell its connection's session (%s)", e.toString());
            return -1;
        }
    }

    /** @return the driver's method that tells the session's id, found on the first connection, or {@code null} */
    private Method idMethod(Connection connection) {
        if (idMethodFound) {
            return idMethod;
        }
        Method found = null;
        String type = switch (dialect) {
            case MARIADB -> DRIVER_TYPES.get(0);
            case POSTGRESQL -> DRIVER_TYPES.get(1);
            case H2 -> null;
        };
        if (type != null) {
            try {
                Class<?> driverType = Class.forName(type, false, connection.getClass().getClassLoader());
                if (connection.isWrapperFor(driverType)) {
                    found = driverType.getMethod(dialect == JdbcDialect.MARIADB ? "getThreadId" : "getBackendPID");
                }
            } catch (ReflectiveOperationException | SQLException | LinkageError e) {
                LOG.debugf("The JDBC driver does not tell its connections' sessions (%s)", e.toString());
            }
        }
        idMethod = found;
        idMethodFound = true;
        return found;
    }

    /**
     * Closes the driver's connection under the pool's wrapper, so that the pool, given the wrapper back, drops it
     * instead of lending it again (a connection whose session is about to be ended), and frees its place in the pool.
     *
     * @param connection a connection of the datasource, maybe wrapped by the pool, maybe broken
     */
    static void closeUnderlying(Connection connection) {
        try {
            connection.unwrap(Connection.class).close();
        } catch (SQLException | RuntimeException broken) {
            // the pool drops a connection that failed so
        }
    }

    /** @return {@code true} once the session is gone */
    private boolean endRound(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setNetworkTimeout(Runnable::run, (ROUND_SECONDS + 1) * 1000);
            if (!connection.getAutoCommit()) {
                connection.setAutoCommit(true);
            }
            try (Statement statement = connection.createStatement()) {
                statement.setQueryTimeout(ROUND_SECONDS);
                if (dialect == JdbcDialect.MARIADB) {
                    try {
                        statement.execute("KILL CONNECTION " + id);
                    } catch (SQLException e) {
                        if (e.getErrorCode() != MARIADB_NO_SUCH_THREAD) {
                            throw e;
                        }
                    }
                    return count(statement, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + id) == 0;
                }
                String own = PG_OWN_SESSION.formatted(id);
                statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE " + own);
                return count(statement, "SELECT COUNT(*) FROM pg_stat_activity WHERE " + own) == 0;
            }
        }
    }

    private static long count(Statement statement, String query) throws SQLException {
        try (ResultSet rows = statement.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private boolean refused(SQLException e) {
        return dialect == JdbcDialect.MARIADB ? e.getErrorCode() == MARIADB_KILL_DENIED
                : INSUFFICIENT_PRIVILEGE.equals(e.getSQLState());
    }

    private void warnOnce(long id, SQLException e) {
        if (!warned) {
            warned = true;
            LOG.warnf("The lock store's datasource may not end its own session %d (%s): a lock statement whose "
                    + "answer was lost ends only with its connection, and may take effect after its take-back", id,
                    e.getMessage());
        }
    }
}
