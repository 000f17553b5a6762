package io.quarkiverse.lock.runtime.store.postgresql;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;

import org.jboss.logging.Logger;

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
            dispatch(notification.getPayload(), prefix, listener);
        }
    }

    /**
     * Reads an announcement: {@code G <owner> <token> <key as hex>}, the key being the row's (prefix included).
     *
     * @param payload the notification's payload
     * @param prefix the key prefix of this application, in UTF-8
     * @param listener told of a hand-over of a key under that prefix
     */
    static void dispatch(String payload, byte[] prefix, ReleaseListener listener) {
        if (!payload.startsWith("G ")) {
            return;
        }
        int ownerEnd = payload.indexOf(' ', 2);
        int tokenEnd = ownerEnd < 0 ? -1 : payload.indexOf(' ', ownerEnd + 1);
        if (tokenEnd < 0) {
            return;
        }
        byte[] id;
        long token;
        try {
            id = HexFormat.of().parseHex(payload, tokenEnd + 1, payload.length());
            token = Long.parseLong(payload, ownerEnd + 1, tokenEnd, 10);
        } catch (IllegalArgumentException malformed) {
            return;
        }
        if (id.length < prefix.length || !Arrays.equals(id, 0, prefix.length, prefix, 0, prefix.length)) {
            return;
        }
        String key = new String(id, prefix.length, id.length - prefix.length, StandardCharsets.UTF_8);
        listener.handedOver(key, payload.substring(2, ownerEnd), token);
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
