package io.quarkiverse.lock.runtime.store.redis;

import java.util.function.Consumer;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.spi.ReconnectBackoff;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The application's one subscription to the release channel: a dedicated connection that stays subscribed, and
 * reconnects with backoff when it is lost. After each (re)subscription it reports a gap, since releases may have been
 * missed while it was down.
 */
final class RedisReleaseSubscriber implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RedisReleaseSubscriber.class);

    private final Vertx vertx;
    private final Redis redis;
    private final String channel;
    private final Consumer<String> onRelease;
    private final Runnable onGap;
    private volatile boolean closed;
    private volatile RedisConnection connection;
    private final ReconnectBackoff backoff = new ReconnectBackoff();

    RedisReleaseSubscriber(Vertx vertx, Redis redis, String channel, Consumer<String> onRelease, Runnable onGap) {
        this.vertx = vertx;
        this.redis = redis;
        this.channel = channel;
        this.onRelease = onRelease;
        this.onGap = onGap;
    }

    void start() {
        connect();
    }

    @Override
    public void close() {
        closed = true;
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
            conn.send(Request.cmd(Command.SUBSCRIBE).arg(channel)).onSuccess(subscribed -> {
                backoff.reset();
                LOG.debugf("Subscribed to lock releases on channel %s", channel);
                onGap.run();
            }).onFailure(failure -> lost(conn, failure.getMessage()));
        }).onFailure(failure -> retryLater(failure.getMessage()));
    }

    private void onMessage(Response message) {
        if (message.size() >= 3 && "message".equals(message.get(0).toString())
                && channel.equals(message.get(1).toString())) {
            onRelease.accept(message.get(2).toString());
        }
    }

    private void lost(RedisConnection conn, String why) {
        if (connection != conn) {
            return;
        }
        connection = null;
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
}
