package io.quarkiverse.lock.runtime.store.redis;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;
import io.vertx.redis.client.Command;
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
 * Order: commands reach the server in the order {@link #send} was called, whatever threads call it: they pass one
 * queue, and the connection is written only under this object's lock, in queue order. So a take-back sent after its
 * acquisition always runs after it. At most {@link #MAX_IN_FLIGHT} commands are in flight at once, well below the
 * client's own limit on unanswered commands per connection ({@code quarkus.redis.max-waiting-handlers}, 2048 by
 * default, past which it refuses commands with "Redis waiting queue is full"); later ones wait in the queue, and one
 * whose caller gave up meanwhile is never sent.
 * <p>
 * A connection on which commands got no reply at all for half an operation timeout when one timed out
 * ({@link #noAnswer(Duration)}) is
 * closed for good and replaced: one that swallows traffic never fails by itself. The new connection's first command
 * kills the old one on the server ({@code CLIENT KILL ID}), so bytes of the old connection that the network delivers
 * late (an acquisition, say) can never run after the take-backs sent on the new one; a server that refuses the kill
 * (an ACL without {@code CLIENT}) leaves that to the old socket's close.
 */
final class RedisChannel {

    /** Commands in flight at most; below the client's default limit of 2048, which users may lower. */
    static final int MAX_IN_FLIGHT = 1000;
    private static final Logger LOG = Logger.getLogger(RedisChannel.class);

    private final Redis redis;
    private final Context context;
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    private Future<RedisConnection> connection;
    private long connectionId = -1;
    private long replacedId = -1;
    private int inFlight;
    private boolean pumping;
    private boolean pumpAgain;
    private boolean awaitingConnection;
    private volatile long lastReplyNanos = System.nanoTime();
    private volatile long busySinceNanos;

    /**
     * @param redis the client whose configuration (hosts, credentials, TLS) the connection uses
     * @param vertx the Vert.x instance, whose event loop writes the commands of callers that are not on one
     */
    RedisChannel(Redis redis, Vertx vertx) {
        this.redis = redis;
        this.context = ((VertxInternal) vertx).createEventLoopContext();
    }

    /**
     * @param request the command
     * @return its reply; cancelling before the command was sent keeps it from being sent
     */
    Uni<Response> send(Request request) {
        return Uni.createFrom().<List<Response>> emitter(emitter -> enqueue(List.of(request), emitter))
                .map(replies -> replies.get(0));
    }

    /**
     * Sends commands together on one connection, one after the other with nothing between them: for a command whose
     * meaning depends on the connection it runs on, such as {@code WAIT} after the write it waits for.
     *
     * @param requests the commands
     * @return their replies, in order; fails with the first error reply
     */
    Uni<List<Response>> sendTogether(List<Request> requests) {
        return Uni.createFrom().emitter(emitter -> enqueue(requests, emitter));
    }

    private void enqueue(List<Request> requests, UniEmitter<? super List<Response>> emitter) {
        Queued queued = new Queued(requests, emitter);
        emitter.onTermination(queued::end);
        synchronized (this) {
            queue.addLast(queued);
        }
        pump();
    }

    /**
     * Writes queued commands to the connection, in queue order, while fewer than {@link #MAX_IN_FLIGHT} are in
     * flight, on an event-loop thread. Only one thread writes at a time; a call made meanwhile makes it look again.
     */
    private void pump() {
        if (!Context.isOnEventLoopThread()) {
            // A worker thread's context runs one task at a time, and that task may be blocked waiting for these
            // replies: the client's callbacks must not be bound to it, so the writing happens on an event loop.
            context.runOnContext(ignored -> pump());
            return;
        }
        synchronized (this) {
            if (pumping) {
                pumpAgain = true;
                return;
            }
            pumping = true;
            try {
                do {
                    pumpAgain = false;
                    writeQueued();
                } while (pumpAgain);
            } finally {
                pumping = false;
            }
        }
    }

    /** Guarded by this. */
    private void writeQueued() {
        while (inFlight < MAX_IN_FLIGHT && !queue.isEmpty()) {
            Future<RedisConnection> current = connection == null ? connect() : connection;
            if (!current.isComplete()) {
                if (!awaitingConnection) {
                    awaitingConnection = true;
                    current.onComplete(ignored -> {
                        synchronized (this) {
                            awaitingConnection = false;
                        }
                        pump();
                    });
                }
                return;
            }
            if (current.failed()) {
                // Everything queued was waiting for this connection: it fails, and the next command connects again.
                connection = null;
                for (Queued waiting = queue.pollFirst(); waiting != null; waiting = queue.pollFirst()) {
                    waiting.emitter.fail(current.cause());
                }
                return;
            }
            Queued next = queue.pollFirst();
            if (next.ended) {
                continue;
            }
            if (inFlight++ == 0) {
                busySinceNanos = System.nanoTime();
            }
            RedisConnection conn = current.result();
            Future<List<Response>> reply = next.requests.size() == 1
                    ? conn.send(next.requests.get(0)).map(List::of)
                    : conn.batch(next.requests);
            reply.onComplete(next::onReply);
        }
    }

    /** Guarded by this. */
    private Future<RedisConnection> connect() {
        long killed = replacedId;
        replacedId = -1;
        connection = redis.connect().onSuccess(conn -> opened(conn, killed));
        return connection;
    }

    /**
     * The first commands on a new connection, before any lock command: kill the connection it replaces, if any, and
     * learn its own id, so that it can be killed in turn.
     */
    private void opened(RedisConnection conn, long killed) {
        conn.exceptionHandler(failure -> lost(conn, failure.getMessage()));
        conn.endHandler(ignored -> lost(conn, "connection closed"));
        if (killed >= 0) {
            conn.send(Request.cmd(Command.CLIENT).arg("KILL").arg("ID").arg(killed)).onFailure(failure -> LOG
                    .debugf("Could not kill the replaced Redis connection %d (%s); its late bytes, if any, end "
                            + "with its socket", killed, failure.getMessage()));
        }
        conn.send(Request.cmd(Command.CLIENT).arg("ID")).onSuccess(id -> {
            synchronized (this) {
                if (connection != null && connection.succeeded() && connection.result() == conn) {
                    connectionId = id.toLong();
                }
            }
        });
    }

    private synchronized void lost(RedisConnection conn, String why) {
        if (connection != null && connection.succeeded() && connection.result() == conn) {
            LOG.debugf("The lock connection to Redis was lost (%s); the next command opens a new one", why);
            connection = null;
            connectionId = -1;
            conn.close();
        }
    }

    /**
     * An operation got no answer within {@code timeout}. If no reply at all came on the connection for half that long
     * while commands were in flight, the connection is closed for good (failing what is in flight on it) and the next
     * command opens a new one; a connection that answers, slowly, is kept.
     *
     * @param timeout the operation timeout
     */
    void noAnswer(Duration timeout) {
        RedisConnection silent;
        long killed;
        synchronized (this) {
            long silentSince = Math.max(lastReplyNanos, busySinceNanos);
            if (inFlight == 0 || System.nanoTime() - silentSince < timeout.toNanos() / 2 || connection == null
                    || !connection.succeeded()) {
                return;
            }
            silent = connection.result();
            killed = connectionId;
        }
        LOG.debugf("No reply from Redis for %s with commands in flight; the lock connection is replaced", timeout);
        synchronized (this) {
            if (connection == null || !connection.succeeded() || connection.result() != silent) {
                return;
            }
            connection = null;
            connectionId = -1;
            replacedId = killed;
        }
        if (silent instanceof PooledRedisConnection pooled) {
            // Closing a pooled connection only returns it to the pool, where the next connect would find the same
            // silent socket; a closed socket is dropped from the pool.
            pooled.actual().forceClose();
        } else {
            silent.close();
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

    /** Commands waiting for their turn, or in flight. */
    private final class Queued {

        final List<Request> requests;
        final UniEmitter<? super List<Response>> emitter;
        /** Set when the caller went away (or the reply came): a queued command that ended is never sent. */
        volatile boolean ended;

        Queued(List<Request> requests, UniEmitter<? super List<Response>> emitter) {
            this.requests = requests;
            this.emitter = emitter;
        }

        void end() {
            ended = true;
        }

        void onReply(AsyncResult<List<Response>> reply) {
            lastReplyNanos = System.nanoTime();
            synchronized (RedisChannel.this) {
                inFlight--;
            }
            pump();
            if (reply.succeeded()) {
                emitter.complete(reply.result());
            } else {
                emitter.fail(reply.cause());
            }
        }
    }
}
