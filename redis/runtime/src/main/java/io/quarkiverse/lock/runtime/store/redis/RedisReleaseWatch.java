package io.quarkiverse.lock.runtime.store.redis;

import java.util.List;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.spi.ReconnectBackoff;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.ResponseType;

/**
 * The application's one subscription to its release channels (the release channel all instances hear, and the channel
 * of its own hand-overs): a dedicated connection that stays subscribed, and reconnects with backoff when it is lost.
 * It tells the listener of each release and hand-over the channels announce, and after each (re)subscription of a
 * gap, since releases may have been missed while it was down. On a single server one connection carries both
 * channels, so their messages arrive in the order Redis published them (on a cluster each may sit on another node;
 * nothing depends on that order: a late hand-over is judged by its token, a plain release only wakes).
 * <p>
 * A connection can die without a word (a dropped network path, an idle-connection reaper in between), and then every
 * release would go unheard while the listener believes it hears them all. So the subscription asks {@code PING} every
 * {@value #KEEPALIVE_MILLIS} ms, and takes a connection that has answered nothing (no pong, no message) for
 * {@value #SILENCE_MILLIS} ms as lost.
 */
final class RedisReleaseWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RedisReleaseWatch.class);
    /** How often the subscription checks that its connection answers. */
    static final long KEEPALIVE_MILLIS = 1_000;
    /** How long a connection may stay silent, though asked, before it counts as lost. */
    static final long SILENCE_MILLIS = 3_000;

    private final Vertx vertx;
    private final Redis redis;
    private final List<String> channels;
    private final ReleaseListener listener;
    private final boolean wakeOnly;
    private volatile boolean closed;
    private volatile RedisConnection connection;
    /** When the current connection last said anything, as {@link System#nanoTime()}. */
    private volatile long heardNanos;
    private long keepAlive = -1;
    private final ReconnectBackoff backoff = new ReconnectBackoff();

    /**
     * @param vertx the Vert.x instance, for reconnecting
     * @param redis the client that opens the connection
     * @param channels the channels to hear, none empty
     * @param listener told of the releases
     * @param wakeOnly {@code true} to report a hand-over as a plain release, so the waiter asks the store itself
     */
    RedisReleaseWatch(Vertx vertx, Redis redis, List<String> channels, ReleaseListener listener,
            boolean wakeOnly) {
        this.vertx = vertx;
        this.redis = redis;
        this.channels = List.copyOf(channels);
        this.listener = listener;
        this.wakeOnly = wakeOnly;
    }

    void start() {
        connect();
    }

    @Override
    public void close() {
        RedisConnection current;
        synchronized (this) {
            closed = true;
            current = connection;
            connection = null;
            stopKeepAlive();
            listener.announcesEveryRelease(false);
        }
        if (current != null) {
            current.close();
        }
    }

    private void connect() {
        if (closed) {
            return;
        }
        redis.connect().onSuccess(conn -> {
            synchronized (this) {
                if (closed) {
                    conn.close();
                    return;
                }
                connection = conn;
                heardNanos = System.nanoTime();
            }
            conn.handler(this::onMessage);
            conn.exceptionHandler(failure -> lost(conn, failure.getMessage()));
            conn.endHandler(ignored -> lost(conn, "connection closed"));
            subscribe(conn, 0);
        }).onFailure(failure -> retryLater(failure.getMessage()));
    }

    /** Subscribes to one channel after the other, so that once all are confirmed no message can be missed. */
    private void subscribe(RedisConnection conn, int next) {
        if (closed || connection != conn) {
            return;
        }
        if (next == channels.size()) {
            subscribed(conn);
            return;
        }
        conn.send(Request.cmd(Command.SUBSCRIBE).arg(channels.get(next)))
                .onSuccess(subscribed -> subscribe(conn, next + 1))
                .onFailure(failure -> lost(conn, failure.getMessage()));
    }

    private void subscribed(RedisConnection conn) {
        synchronized (this) {
            if (closed || connection != conn) {
                return;
            }
            backoff.reset();
            keepAlive = vertx.setPeriodic(KEEPALIVE_MILLIS, ignored -> keepAlive(conn));
            listener.announcesEveryRelease(true);
        }
        LOG.debugf("Subscribed to lock releases on channels %s", channels);
        listener.mayHaveMissed();
    }

    private void keepAlive(RedisConnection conn) {
        if (connection != conn) {
            return;
        }
        long silentMillis = (System.nanoTime() - heardNanos) / 1_000_000;
        if (silentMillis >= SILENCE_MILLIS) {
            lost(conn, "no answer for " + silentMillis + " ms");
            return;
        }
        conn.send(Request.cmd(Command.PING)).onSuccess(pong -> heard(conn));
    }

    private void heard(RedisConnection conn) {
        if (connection == conn) {
            heardNanos = System.nanoTime();
        }
    }

    private void stopKeepAlive() {
        if (keepAlive >= 0) {
            vertx.cancelTimer(keepAlive);
            keepAlive = -1;
        }
    }

    /**
     * Takes what the subscription connection delivers: the channels' messages, and replies nobody waits for (the
     * client may hand a pong here), which only show that the connection is alive.
     */
    void onMessage(Response message) {
        heardNanos = System.nanoTime();
        ResponseType type = message.type();
        if ((type == ResponseType.MULTI || type == ResponseType.PUSH) && message.size() >= 3
                && "message".equals(message.get(0).toString())
                && channels.contains(message.get(1).toString())) {
            dispatch(message.get(2).toString(), listener, wakeOnly);
        }
    }

    private void lost(RedisConnection conn, String why) {
        synchronized (this) {
            if (connection != conn) {
                return;
            }
            connection = null;
            stopKeepAlive();
            listener.announcesEveryRelease(false);
        }
        conn.close();
        retryLater(why);
    }

    private void retryLater(String why) {
        if (closed) {
            return;
        }
        LOG.debugf("Lock release notifications are down (%s); waiters poll until they are back", why);
        vertx.setTimer(backoff.next(), ignored -> connect());
    }

    /**
     * Reads a message of the release channel: {@code G <owner> <token> <name>} for a hand-over, {@code R <name>} for
     * a plain release. The name comes last, so it may contain anything.
     *
     * @param message the message
     * @param listener told of it
     * @param wakeOnly {@code true} to report a hand-over as a plain release, so the waiter asks the store itself
     */
    static void dispatch(String message, ReleaseListener listener, boolean wakeOnly) {
        if (message.startsWith("R ")) {
            listener.released(message.substring(2));
        } else if (message.startsWith("G ")) {
            int ownerEnd = message.indexOf(' ', 2);
            int tokenEnd = ownerEnd < 0 ? -1 : message.indexOf(' ', ownerEnd + 1);
            if (tokenEnd < 0) {
                return;
            }
            String name = message.substring(tokenEnd + 1);
            if (wakeOnly) {
                listener.released(name);
            } else {
                listener.handedOver(name, message.substring(2, ownerEnd),
                        Long.parseLong(message.substring(ownerEnd + 1, tokenEnd)));
            }
        }
    }
}
