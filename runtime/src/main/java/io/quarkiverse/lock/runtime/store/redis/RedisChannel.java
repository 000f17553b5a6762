package io.quarkiverse.lock.runtime.store.redis;

import java.util.ArrayDeque;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.PooledRedisConnection;

/**
 * One connection that carries all lock commands of the application, pipelined: commands do not queue for a pooled
 * connection, so a burst of lock operations cannot exhaust the client's pool, and many commands share each round
 * trip. The connection is opened on first use and opened again on the next command after it is lost; commands in
 * flight when it is lost fail, and the caller sees a {@code LockException}.
 * <p>
 * At most {@link #MAX_IN_FLIGHT} commands are in flight at once, well below the client's own limit on unanswered
 * commands per connection ({@code quarkus.redis.max-waiting-handlers}, 2048 by default, past which it refuses commands
 * with "Redis waiting queue is full"); later commands wait here, in order, and one whose caller gave up meanwhile is
 * never sent. So a burst of any size is served, in the order it came. A connection that leaves a command unanswered
 * for the operation timeout ({@link #noAnswer()}) is closed and replaced: one that swallows traffic never fails by
 * itself.
 */
final class RedisChannel {

    /** Commands in flight at most; below the client's default limit of 2048, which users may lower. */
    static final int MAX_IN_FLIGHT = 1000;
    private static final Logger LOG = Logger.getLogger(RedisChannel.class);

    private final Redis redis;
    private final ArrayDeque<Queued> queued = new ArrayDeque<>();
    private Future<RedisConnection> connection;
    private int inFlight;

    /**
     * @param redis the client whose configuration (hosts, credentials, TLS) the connection uses
     */
    RedisChannel(Redis redis) {
        this.redis = redis;
    }

    /**
     * @param request the command
     * @return its reply; cancelling before the command was sent keeps it from being sent
     */
    Uni<Response> send(Request request) {
        return Uni.createFrom().emitter(emitter -> {
            boolean now;
            synchronized (this) {
                now = queued.isEmpty() && inFlight < MAX_IN_FLIGHT;
                if (now) {
                    inFlight++;
                } else {
                    Queued waiting = new Queued(request, emitter);
                    emitter.onTermination(waiting::end);
                    queued.addLast(waiting);
                }
            }
            if (now) {
                dispatch(request, emitter);
            }
        });
    }

    private void dispatch(Request request, UniEmitter<? super Response> emitter) {
        connection().compose(conn -> conn.send(request)).onComplete(reply -> {
            sendQueued();
            if (reply.succeeded()) {
                emitter.complete(reply.result());
            } else {
                emitter.fail(reply.cause());
            }
        });
    }

    /** One command answered: the next waiting one, if any, takes its place. */
    private void sendQueued() {
        Queued next;
        synchronized (this) {
            next = queued.pollFirst();
            while (next != null && next.ended) {
                next = queued.pollFirst();
            }
            if (next == null) {
                inFlight--;
                return;
            }
        }
        dispatch(next.request, next.emitter);
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
     * A command got no answer within the operation timeout: the connection is closed (failing what is in flight on
     * it) and the next command opens a new one.
     */
    void noAnswer() {
        Future<RedisConnection> current;
        synchronized (this) {
            current = connection;
        }
        if (current != null && current.succeeded()) {
            LOG.debugf("A lock command got no answer from Redis in time; the connection is replaced");
            RedisConnection conn = current.result();
            lost(conn, "no answer in time");
            discard(conn);
        }
    }

    /**
     * Closes the socket itself: closing a connection of the client's pool only returns it to the pool, where the next
     * connect would find the same silent socket again; a closed socket is dropped from the pool.
     */
    private static void discard(RedisConnection conn) {
        if (conn instanceof PooledRedisConnection pooled) {
            pooled.actual().forceClose();
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

    /** A command waiting for its turn; ended before its turn only if its caller cancelled it. */
    private static final class Queued {

        final Request request;
        final UniEmitter<? super Response> emitter;
        volatile boolean ended;

        Queued(Request request, UniEmitter<? super Response> emitter) {
            this.request = request;
            this.emitter = emitter;
        }

        void end() {
            ended = true;
        }
    }
}
