package io.quarkiverse.lock.runtime.store.postgresql;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.spi.HandOverAnnouncement;
import io.quarkiverse.lock.spi.ReconnectBackoff;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.PgNotification;

/**
 * The application's one {@code LISTEN} on the release channel: a connection taken from the datasource's own pool, so
 * it has exactly the datasource's address, credentials and TLS, and kept for as long as the application runs.
 * <p>
 * The connection is probed every few seconds; one that fails, closes or does not answer a probe within the operation
 * timeout is given back (after {@code UNLISTEN *}, so the pool never hands a listening connection to the application)
 * and replaced with backoff ({@link ReconnectBackoff}). After each (re)subscription the watch reports a gap, since
 * announcements may have been missed while it was down; waiters poll meanwhile.
 * <p>
 * While it listens, the watch tells the waiters that every release reaching them is announced
 * ({@link ReleaseListener#announcesEveryRelease}), so they poll only as a fallback: a refused waiter is in the row's
 * line, and a release frees the lock for it only by a hand-over, which is announced (a release that finds nobody in
 * line has nobody to tell). Without this, a waiter that was told of its hand-over at once still polled every few
 * milliseconds, and its polls queued on the row's lock ahead of the releases.
 */
final class PostgresReleaseWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(PostgresReleaseWatch.class);
    private static final long PROBE_MILLIS = 5_000;

    private final Vertx vertx;
    private final Pool pool;
    private final String channel;
    private final byte[] prefix;
    private final ReleaseListener listener;
    private final long probeTimeoutMillis;
    private final ReconnectBackoff backoff = new ReconnectBackoff();
    private volatile boolean closed;
    private volatile SqlConnection connection;
    private volatile long probeTimer = -1;

    /**
     * @param vertx for the probe and retry timers
     * @param pool the datasource's pool
     * @param channel the notification channel
     * @param keyPrefix the namespace of this application's keys; announcements of other keys are ignored
     * @param listener told of each hand-over
     * @param probeTimeout how long a probe of the connection may take
     */
    PostgresReleaseWatch(Vertx vertx, Pool pool, String channel, String keyPrefix, ReleaseListener listener,
            Duration probeTimeout) {
        this.vertx = vertx;
        this.pool = pool;
        this.channel = channel;
        this.prefix = keyPrefix.getBytes(StandardCharsets.UTF_8);
        this.listener = listener;
        this.probeTimeoutMillis = Math.max(1, probeTimeout.toMillis());
    }

    void start() {
        if (closed) {
            return;
        }
        pool.getConnection().subscribe().with(this::listen, failure -> retryLater(failure.getMessage()));
    }

    private void listen(SqlConnection conn) {
        if (closed) {
            giveBack(conn);
            return;
        }
        connection = conn;
        PgConnection pg = PgConnection.cast(conn.getDelegate());
        pg.notificationHandler(this::onNotification);
        pg.closeHandler(ignored -> lost(conn, "connection closed"));
        pg.exceptionHandler(failure -> lost(conn, failure.getMessage()));
        conn.query("LISTEN \"" + channel + "\"").execute().subscribe().with(listening -> {
            synchronized (this) {
                if (closed || connection != conn) {
                    return;
                }
                backoff.reset();
                listener.announcesEveryRelease(true);
            }
            LOG.debugf("Listening to lock hand-overs on channel %s", channel);
            listener.mayHaveMissed();
            probeLater(conn);
        }, failure -> lost(conn, failure.getMessage()));
    }

    private void probeLater(SqlConnection conn) {
        probeTimer = vertx.setTimer(PROBE_MILLIS, ignored -> {
            if (closed || connection != conn) {
                return;
            }
            conn.query("SELECT 1").execute()
                    .ifNoItem().after(Duration.ofMillis(probeTimeoutMillis)).fail()
                    .subscribe().with(answered -> probeLater(conn), failure -> lost(conn, failure.toString()));
        });
    }

    private void onNotification(PgNotification notification) {
        if (channel.equals(notification.getChannel())) {
            HandOverAnnouncement.dispatch(notification.getPayload(), prefix, listener);
        }
    }

    private void lost(SqlConnection conn, String why) {
        synchronized (this) {
            if (connection != conn) {
                return;
            }
            connection = null;
            listener.announcesEveryRelease(false);
        }
        vertx.cancelTimer(probeTimer);
        giveBack(conn);
        retryLater(why);
    }

    private void retryLater(String why) {
        if (closed) {
            return;
        }
        LOG.debugf("Lock hand-over announcements are down (%s); waiters poll until they are back", why);
        vertx.setTimer(backoff.next(), ignored -> start());
    }

    /** Stops listening before the connection goes back to the pool; a dead connection the pool drops by itself. */
    private void giveBack(SqlConnection conn) {
        PgConnection.cast(conn.getDelegate()).notificationHandler(null);
        conn.query("UNLISTEN *").execute()
                .ifNoItem().after(Duration.ofMillis(probeTimeoutMillis)).fail()
                .onTermination().call(conn::close)
                .subscribe().with(ignored -> {
                }, ignored -> {
                });
    }

    @Override
    public void close() {
        closed = true;
        SqlConnection current;
        synchronized (this) {
            current = connection;
            connection = null;
            listener.announcesEveryRelease(false);
        }
        vertx.cancelTimer(probeTimer);
        if (current != null) {
            giveBack(current);
        }
    }
}
