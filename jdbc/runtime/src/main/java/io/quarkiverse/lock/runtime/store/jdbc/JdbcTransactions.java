package io.quarkiverse.lock.runtime.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

import javax.sql.DataSource;

/**
 * Runs each unit of work of the store as one short transaction of its own: a connection taken from the datasource,
 * auto-commit off (on MariaDB, a transaction begun by {@code START TRANSACTION} instead: its driver sends a statement
 * for each change of auto-commit, and this saves one round trip per transaction), committed at the end, rolled back on
 * any failure, returned to the pool.
 * <p>
 * The work runs on a thread of the store's own ({@link JdbcWorkers}), on which no JTA transaction is ever begun: an
 * Agroal datasource enlists a connection only in the transaction of the thread that asks for it, so the store's
 * connections never join a caller's transaction, and a caller's rollback neither undoes a release nor keeps a lock.
 * A transaction that lost a race (a serialization failure, a deadlock, a row inserted first by another) is tried
 * again after a short random pause, for as long as the operation has time.
 * <p>
 * Transactions read at {@code READ COMMITTED}, the default of PostgreSQL and H2: when the datasource is configured
 * above it, it is lowered for the store's transactions (the pool restores it). MariaDB keeps its default
 * {@code REPEATABLE READ}: the statements read only through row locks, which see the latest committed rows.
 */
final class JdbcTransactions {

    /** Unit of work in one transaction. */
    @FunctionalInterface
    interface Work<T> {

        /**
         * @param transaction the transaction
         * @return the outcome, returned once the transaction committed
         */
        T run(JdbcTransaction transaction) throws SQLException;
    }

    private static final long MAX_PAUSE_NANOS = 10_000_000;

    private final DataSource dataSource;
    private final JdbcStatements statements;
    private final JdbcSessions sessions;
    /** Whether connections read above {@code READ COMMITTED} by default; {@code null} until a connection told. */
    private volatile Boolean lowerIsolation;

    /**
     * @param dataSource the datasource
     * @param statements the database's statements
     * @param sessions ends the session of a statement whose outcome is unknown, before the operation ends
     */
    JdbcTransactions(DataSource dataSource, JdbcStatements statements, JdbcSessions sessions) {
        this.dataSource = dataSource;
        this.statements = statements;
        this.sessions = sessions;
    }

    /**
     * @param deadlineNanos when the operation's time runs out ({@link System#nanoTime()})
     * @param work what to do
     * @return what the work returned, once committed
     * @throws SQLException the last failure, once trying again is pointless or the time ran out
     */
    <T> T run(long deadlineNanos, Work<T> work) throws SQLException {
        return retried(deadlineNanos, () -> once(deadlineNanos, work, true));
    }

    /**
     * Runs work that only reads, as {@link #run} does, except that a session whose statement's outcome is unknown is
     * left to end with its connection: a read that takes effect late changes nothing.
     *
     * @param deadlineNanos when the operation's time runs out ({@link System#nanoTime()})
     * @param work what to read
     * @return what the work returned
     * @throws SQLException the last failure, once trying again is pointless or the time ran out
     */
    <T> T read(long deadlineNanos, Work<T> work) throws SQLException {
        return retried(deadlineNanos, () -> once(deadlineNanos, work, false));
    }

    /**
     * Runs work of one statement in auto-commit, as the pool hands out connections, without a transaction of its own:
     * one round trip, where {@link #run} takes at least two. On a connection that the pool hands out with auto-commit
     * off, it commits as {@link #run} does.
     *
     * @param deadlineNanos when the operation's time runs out ({@link System#nanoTime()})
     * @param work one statement
     * @return what the work returned, once committed
     * @throws SQLException the last failure, once trying again is pointless or the time ran out
     */
    <T> T runAlone(long deadlineNanos, Work<T> work) throws SQLException {
        return retried(deadlineNanos, () -> alone(deadlineNanos, work));
    }

    /** One try of a unit of work. */
    @FunctionalInterface
    private interface Attempt<T> {

        T run() throws SQLException;
    }

    private <T> T retried(long deadlineNanos, Attempt<T> attempt) throws SQLException {
        while (true) {
            try {
                return attempt.run();
            } catch (SQLException e) {
                if (!statements.dialect.isConflict(e)) {
                    throw e;
                }
                long pause = ThreadLocalRandom.current().nextLong(MAX_PAUSE_NANOS / 10, MAX_PAUSE_NANOS);
                if (System.nanoTime() + pause >= deadlineNanos) {
                    throw e;
                }
                LockSupport.parkNanos(pause);
            }
        }
    }

    private <T> T once(long deadlineNanos, Work<T> work, boolean writes) throws SQLException {
        JdbcTransaction.remainingSeconds(deadlineNanos);
        Abandoned abandoned = new Abandoned(writes);
        try (Connection connection = dataSource.getConnection()) {
            int networkTimeout = connection.getNetworkTimeout();
            boolean explicit = statements.dialect.beginsExplicitly();
            JdbcTransaction transaction = new JdbcTransaction(connection, statements, deadlineNanos);
            if (!explicit) {
                prepare(connection);
            }
            try {
                return ended(connection, transaction, true, abandoned, t -> {
                    if (explicit) {
                        t.begin();
                    }
                    return work.run(t);
                });
            } finally {
                restore(connection, networkTimeout, explicit);
            }
        } finally {
            abandoned.end();
        }
    }

    private <T> T alone(long deadlineNanos, Work<T> work) throws SQLException {
        JdbcTransaction.remainingSeconds(deadlineNanos);
        Abandoned abandoned = new Abandoned(true);
        try (Connection connection = dataSource.getConnection()) {
            int networkTimeout = connection.getNetworkTimeout();
            JdbcTransaction transaction = new JdbcTransaction(connection, statements, deadlineNanos);
            try {
                return ended(connection, transaction, !connection.getAutoCommit(), abandoned, work);
            } finally {
                restoreNetworkTimeout(connection, networkTimeout);
            }
        } finally {
            abandoned.end();
        }
    }

    /**
     * Runs the work in the transaction and, if {@code ends} is {@code true}, commits it, or rolls it back when the
     * work failed (a failed rollback is added to the work's failure as suppressed). A failure that leaves the outcome of
     * work that writes unknown (a timeout, a broken connection), or a rollback of such work that fails, abandons the
     * connection ({@link Abandoned}).
     */
    private <T> T ended(Connection connection, JdbcTransaction transaction, boolean ends, Abandoned abandoned,
            Work<T> work) throws SQLException {
        // read now: a driver may no longer tell once the connection broke
        long session = abandoned.writes ? sessions.idOf(connection) : -1;
        try {
            T outcome = work.run(transaction);
            if (ends) {
                transaction.commit();
            }
            return outcome;
        } catch (SQLException | RuntimeException e) {
            if (abandoned.writes && JdbcSessions.outcomeUnknown(e)) {
                abandoned.abandon(connection, session);
                throw e;
            }
            if (ends) {
                try {
                    transaction.rollback();
                } catch (SQLException rollback) {
                    e.addSuppressed(rollback);
                    // the transaction may still hold its row locks (MariaDB keeps them after a statement's error)
                    if (abandoned.writes) {
                        abandoned.abandon(connection, session);
                    }
                }
            }
            throw e;
        }
    }

    /** Gives the connection back its auto-commit, unless the transaction left it as it was, and its bound of a read. */
    private static void restore(Connection connection, int networkTimeout, boolean explicit) {
        if (!explicit) {
            try {
                connection.setAutoCommit(true);
            } catch (SQLException broken) {
                // the pool discards it
            }
        }
        restoreNetworkTimeout(connection, networkTimeout);
    }

    /**
     * Gives the connection back the bound of a read it had when it was taken from the pool, which does not restore it.
     * A connection that broke is discarded by the pool: only the failure that broke it counts.
     *
     * @param connection the connection
     * @param networkTimeout its bound, as {@link Connection#getNetworkTimeout()} read it
     */
    static void restoreNetworkTimeout(Connection connection, int networkTimeout) {
        try {
            connection.setNetworkTimeout(Runnable::run, networkTimeout);
        } catch (SQLException broken) {
            // the pool discards it
        }
    }

    private void prepare(Connection connection) throws SQLException {
        Boolean lower = lowerIsolation;
        if (lower == null) {
            lower = statements.dialect != JdbcDialect.MARIADB
                    && connection.getTransactionIsolation() > Connection.TRANSACTION_READ_COMMITTED;
            lowerIsolation = lower;
        }
        connection.setAutoCommit(false);
        if (lower) {
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        }
    }

    /**
     * A connection given up with work that writes and whose outcome is unknown: its driver's connection is closed
     * under the pool's wrapper, so the pool drops it instead of lending it again, and once the pool has it back, its
     * session is ended on the server ({@link JdbcSessions#end}) before the operation ends. Ending it only then keeps
     * the pool's connection free for the ending, however many operations are abandoned at once.
     */
    private final class Abandoned {

        final boolean writes;
        long session = -1;

        Abandoned(boolean writes) {
            this.writes = writes;
        }

        void abandon(Connection connection, long session) {
            this.session = session;
            JdbcSessions.closeUnderlying(connection);
        }

        void end() {
            if (session >= 0) {
                sessions.end(session);
            }
        }
    }
}
