package io.quarkiverse.lock.runtime.store.redis;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.vertx.UniHelper;
import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * One connection that carries all lock commands of the application, pipelined: commands do not queue for a pooled
 * connection, so a burst of lock operations cannot exhaust the client's pool, and many commands share each round
 * trip. The connection is opened on first use and opened again on the next command after it is lost; commands in
 * flight when it is lost fail, and the caller sees a {@code LockException}.
 */
final class RedisChannel {

    private static final Logger LOG = Logger.getLogger(RedisChannel.class);

    private final Redis redis;
    private Future<RedisConnection> connection;

    /**
     * @param redis the client whose configuration (hosts, credentials, TLS) the connection uses
     */
    RedisChannel(Redis redis) {
        this.redis = redis;
    }

    /**
     * @param request the command
     * @return its reply
     */
    Uni<Response> send(Request request) {
        return UniHelper.toUni(connection().compose(conn -> conn.send(request)));
    }

    private synchronized Future<RedisConnection> connection() {
        Future<RedisConnection> current = connection;
        if (current == null || current.failed()) {
            current = redis.connect().onSuccess(this::watch);
            connection = current;
        }
        return current;
    }

    private void watch(RedisConnection conn) {
        conn.exceptionHandler(failure -> lost(conn, failure.getMessage()));
        conn.endHandler(ignored -> lost(conn, "connection closed"));
    }

    private synchronized void lost(RedisConnection conn, String why) {
        if (connection != null && connection.succeeded() && connection.result() == conn) {
            LOG.debugf("The lock connection to Redis was lost (%s); the next command opens a new one", why);
            connection = null;
            conn.close();
        }
    }

    /**
     * Closes the connection.
     */
    synchronized void close() {
        if (connection != null && connection.succeeded()) {
            connection.result().close();
        }
        connection = null;
    }
}
