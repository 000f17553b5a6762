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
 * On PostgreSQL, the hand-overs every instance announces ({@link JdbcLockOperations#announce}, a {@code pg_notify}
 * sent once the hand-over committed), heard on one
 * {@code LISTEN} connection taken from the datasource and kept on a thread of its own, which reads the notifications
 * through the driver ({@link PostgresNotifications}). On any other database, or a driver that cannot read them, the
 * thread ends at once, and the waiters rely on {@link JdbcReleaseWatch}'s polls, which go on on PostgreSQL too, for
 * what a notification may miss.
 * <p>
 * The connection is probed every few seconds, each read bounded by the operation timeout, so a connection that died
 * silently is noticed; a connection that fails is given back after {@code UNLISTEN *}, or closed under the pool's
 * wrapper when that fails too, so the pool never hands a listening connection to the application, and replaced with backoff
 * ({@link ReconnectBackoff}). A datasource of one connection is not listened to: the locks would have none left. While it
 * listens, the watch
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
    /** Whether the listener was last told that every release is announced; guarded by {@code this}. */
    private boolean announced;

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
     * Tells the listener whether every release is announced, when that changes, unless the watch closed, which told
     * it the last time.
     *
     * @return {@code false} if the watch closed
     */
    private synchronized boolean announcing(boolean every) {
        if (closed) {
            return false;
        }
        if (announced != every) {
            announced = every;
            listener.announcesEveryRelease(every);
        }
        return true;
    }

    private void run() {
        while (!closed) {
            try {
                JdbcDialect dialect = database.get(deadline()).statements().dialect;
                if (dialect != JdbcDialect.POSTGRESQL) {
                    return;
                }
                if (!database.leavesRoomToListen()) {
                    LOG.warnf("The lock store's datasource has one connection at most: the JDBC lock store does not "
                            + "keep one to listen for hand-overs on PostgreSQL, which would leave none for the locks "
                            + "(waiters of other instances poll). Raise the datasource's max-size to 2 or more");
                    return;
                }
                try (Connection connection = database.connect()) {
                    PostgresNotifications notifications = PostgresNotifications.of(connection);
                    if (notifications == null) {
                        LOG.debugf("The datasource's driver does not read PostgreSQL notifications; lock hand-overs"
                                + " are found by polling");
                        return;
                    }
                    listen(connection, notifications);
                }
            } catch (SQLException | RuntimeException | LinkageError e) {
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

    /**
     * Listens in auto-commit (a {@code LISTEN} takes effect only once committed, and the driver reads notifications
     * only on an idle connection), with every read bounded, until the watch closes or the connection fails.
     */
    private void listen(Connection connection, PostgresNotifications notifications) throws SQLException {
        int networkTimeout = connection.getNetworkTimeout();
        boolean autoCommit = connection.getAutoCommit();
        connection.setNetworkTimeout(Runnable::run, (int) Math.min(Integer.MAX_VALUE,
                settings.operationTimeout().toMillis() + 1000));
        connection.setAutoCommit(true);
        try {
            execute(connection, "LISTEN \"" + channel + "\"");
            hear(connection, notifications);
        } finally {
            announcing(false);
            try {
                execute(connection, "UNLISTEN *");
                connection.setAutoCommit(autoCommit);
                JdbcTransactions.restoreNetworkTimeout(connection, networkTimeout);
            } catch (SQLException broken) {
                // a connection that may still listen never goes back to the pool: its notifications would pile up
                notifications.closeUnderlying(connection);
            }
        }
    }

    private void hear(Connection connection, PostgresNotifications notifications) throws SQLException {
        if (!announcing(true)) {
            return;
        }
        backoff.reset();
        LOG.debugf("Listening to lock hand-overs on channel %s", channel);
        listener.mayHaveMissed();
        long probeAt = System.nanoTime() + PROBE_NANOS;
        while (!closed) {
            for (String payload : notifications.await(connection, channel, WAIT_MILLIS)) {
                if (!closed) {
                    HandOverAnnouncement.dispatch(payload, prefix, listener);
                }
            }
            if (System.nanoTime() - probeAt >= 0) {
                execute(connection, "SELECT 1");
                probeAt = System.nanoTime() + PROBE_NANOS;
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
