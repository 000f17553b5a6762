package io.quarkiverse.lock.runtime.store.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.spi.HandOverAnnouncement;
import io.quarkiverse.lock.spi.ReconnectBackoff;
import io.quarkiverse.lock.spi.ReleaseListener;

/**
 * On PostgreSQL, the hand-overs every instance announces ({@link JdbcLockOperations#free} sends a
 * {@code pg_notify} in the transaction that hands the lock over, delivered when it commits), heard on one
 * {@code LISTEN} connection taken from the datasource and kept on a thread of its own, which reads the notifications
 * through the driver ({@link PostgresNotifications}). On any other database, or a driver that cannot read them, the
 * thread ends at once, and the waiters rely on {@link JdbcReleaseWatch}'s polls, which go on on PostgreSQL too, for
 * what a notification may miss.
 * <p>
 * The connection is probed every few seconds, each read bounded by the operation timeout, so a connection that died
 * silently is noticed; a connection that fails is closed (after {@code UNLISTEN *}, so the pool never hands a listening
 * connection to the application) and replaced with backoff ({@link ReconnectBackoff}). While it listens, the watch
 * tells the waiters that every release reaching them is announced ({@link ReleaseListener#announcesEveryRelease}), as
 * the reactive PostgreSQL store's does, and after each (re)subscription that they may have missed some.
 */
final class JdbcNotificationWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(JdbcNotificationWatch.class);
    /** The longest the thread blocks for notifications, so that it sees a close and probes in time. */
    private static final int WAIT_MILLIS = 500;
    private static final long PROBE_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final JdbcDatabase database;
    private final JdbcLockStoreSettings settings;
    private final ReleaseListener listener;
    private final String channel;
    private final byte[] prefix;
    private final ReconnectBackoff backoff = new ReconnectBackoff();
    private final Thread thread;
    private volatile boolean closed;

    /**
     * Starts listening at once, on a thread of its own, if the database is PostgreSQL.
     *
     * @param database the database
     * @param settings the store's settings: the table, whose name is the channel, the key prefix, and the operation
     *        timeout that bounds each statement and read
     * @param listener told of the hand-overs
     */
    JdbcNotificationWatch(JdbcDatabase database, JdbcLockStoreSettings settings, ReleaseListener listener) {
        this.database = database;
        this.settings = settings;
        this.listener = listener;
        this.channel = JdbcStatements.channel(settings.table());
        this.prefix = settings.keyPrefix().getBytes(StandardCharsets.UTF_8);
        this.thread = new Thread(this::run, "quarkus-lock-jdbc-notifications");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops listening: the listener is told at once that releases are no longer announced, and nothing after. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            listener.announcesEveryRelease(false);
        }
        LockSupport.unpark(thread);
    }

    /**
     * Tells the listener whether every release is announced, unless the watch closed, which told it the last time.
     *
     * @return {@code false} if the watch closed
     */
    private synchronized boolean announcing(boolean every) {
        if (closed) {
            return false;
        }
        listener.announcesEveryRelease(every);
        return true;
    }

    private void run() {
        while (!closed) {
            try {
                JdbcDialect dialect = database.get(deadline()).statements().dialect;
                if (dialect != JdbcDialect.POSTGRESQL) {
                    return;
                }
                try (Connection connection = database.connect()) {
                    if (!PostgresNotifications.supported(connection)) {
                        LOG.debugf("The datasource's driver does not read PostgreSQL notifications; lock hand-overs"
                                + " are found by polling");
                        return;
                    }
                    listen(connection);
                }
            } catch (SQLException | RuntimeException e) {
                if (announcing(false)) {
                    LOG.debugf("Lock hand-over notifications are down (%s); waiters poll until they are back",
                            e.getMessage());
                }
            }
            if (!closed) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(backoff.next()));
            }
        }
    }

    private void listen(Connection connection) throws SQLException {
        int networkTimeout = connection.getNetworkTimeout();
        connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE,
                settings.operationTimeout().toMillis() + 1000));
        try {
            execute(connection, "LISTEN \"" + channel + "\"");
            hear(connection);
        } finally {
            JdbcTransactions.restoreNetworkTimeout(connection, networkTimeout);
        }
    }

    private void hear(Connection connection) throws SQLException {
        try {
            if (!announcing(true)) {
                return;
            }
            backoff.reset();
            LOG.debugf("Listening to lock hand-overs on channel %s", channel);
            listener.mayHaveMissed();
            long probeAt = System.nanoTime() + PROBE_NANOS;
            while (!closed) {
                for (String payload : PostgresNotifications.await(connection, channel, WAIT_MILLIS)) {
                    if (!closed) {
                        HandOverAnnouncement.dispatch(payload, prefix, listener);
                    }
                }
                if (System.nanoTime() - probeAt >= 0) {
                    execute(connection, "SELECT 1");
                    probeAt = System.nanoTime() + PROBE_NANOS;
                }
            }
        } finally {
            announcing(false);
            try {
                execute(connection, "UNLISTEN *");
            } catch (SQLException broken) {
                // the pool discards a broken connection
            }
        }
    }

    private void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(JdbcTransaction.remainingSeconds(deadline()));
            statement.execute(sql);
        }
    }

    private long deadline() {
        return System.nanoTime() + settings.operationTimeout().toNanos();
    }
}
