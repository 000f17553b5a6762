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

/**
 * The application's one subscription to its release channels (the release channel all instances hear, and the channel
 * of its own hand-overs): a dedicated connection that stays subscribed, and reconnects with backoff when it is lost.
 * It tells the listener of each release and hand-over the channels announce, and after each (re)subscription of a
 * gap, since releases may have been missed while it was down. One connection carries both channels, so their messages
 * arrive in the order Redis published them.
 */
final class RedisReleaseSubscriber implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RedisReleaseSubscriber.class);

    private final Vertx vertx;
    private final Redis redis;
    private final List<String> channels;
    private final ReleaseListener listener;
    private final boolean wakeOnly;
    private volatile boolean closed;
    private volatile RedisConnection connection;
    private final ReconnectBackoff backoff = new ReconnectBackoff();

    /**
     * @param vertx the Vert.x instance, for reconnecting
     * @param redis the client that opens the connection
     * @param channels the channels to hear, none empty
     * @param listener told of the releases
     * @param wakeOnly {@code true} to report a hand-over as a plain release, so the waiter asks the store itself
     */
    RedisReleaseSubscriber(Vertx vertx, Redis redis, List<String> channels, ReleaseListener listener,
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
        closed = true;
        listener.announcesEveryRelease(false);
        RedisConnection current = connection;
        if (current != null) {
            current.close();
        }
    }

    private void connect() {
        if (closed) {
            return;
        }
        redis.connect().onSuccess(conn -> {
            connection = conn;
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
            backoff.reset();
            LOG.debugf("Subscribed to lock releases on channels %s", channels);
            listener.announcesEveryRelease(true);
            listener.mayHaveMissed();
            return;
        }
        conn.send(Request.cmd(Command.SUBSCRIBE).arg(channels.get(next)))
                .onSuccess(subscribed -> subscribe(conn, next + 1))
                .onFailure(failure -> lost(conn, failure.getMessage()));
    }

    private void onMessage(Response message) {
        if (message.size() >= 3 && "message".equals(message.get(0).toString())
                && channels.contains(message.get(1).toString())) {
            dispatch(message.get(2).toString(), listener, wakeOnly);
        }
    }

    private void lost(RedisConnection conn, String why) {
        if (connection != conn) {
            return;
        }
        connection = null;
        listener.announcesEveryRelease(false);
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
