package io.quarkiverse.lock.runtime.store.redis;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.List;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * One connection that carries all lock commands of the application, pipelined: commands do not queue for a pooled
 * connection, so a burst of lock operations cannot exhaust the client's pool, and many commands share each round
 * trip. Commands in flight when the connection is lost fail, and the caller sees a {@code LockException}.
 * <p>
 * Commands reach the server in the order {@link #send} was called, whatever threads call it: they pass one queue,
 * which one event loop writes ({@link WriterLoop}), so a take-back sent after its acquisition always runs after it.
 * At most {@link #MAX_IN_FLIGHT} commands are in flight; later ones wait in the queue, and one whose caller gave up
 * meanwhile is never sent.
 * <p>
 * The commands go over one {@link RedisLink} at a time, which kills on the server the connections it replaces before
 * it carries anything. A connection is replaced when it ends or fails, when it answers {@code READONLY} or
 * {@code MASTERDOWN} (it reached a replica), and when an operation timed out while the connection answered nothing for
 * half the timeout (one that swallows traffic never fails by itself), or was still being opened.
 */
final class RedisCommandPipeline {

    /**
     * Commands in flight at most: below the client's limit of unanswered commands per connection
     * ({@code quarkus.redis.max-waiting-handlers}, 2048 by default), past which it refuses them.
     */
    static final int MAX_IN_FLIGHT = 1000;
    private static final Logger LOG = Logger.getLogger(RedisCommandPipeline.class);

    private final Redis redis;
    private final List<RedisScript> scripts;
    private final ReplacedConnections replaced = new ReplacedConnections();
    private final WriterLoop writer;
    /** The commands not yet written, guarded by this, as are the fields up to {@code closed}. */
    private final ArrayDeque<QueuedCommands> queue = new ArrayDeque<>();
    /** The connection being opened or in use, or {@code null}. */
    private RedisLink link;
    private int inFlight;
    private boolean closed;
    private volatile long lastReplyNanos = System.nanoTime();
    private volatile long busySinceNanos;

    /**
     * @param redis the client whose configuration (hosts, credentials, TLS) the connection uses
     * @param vertx the Vert.x instance, one of whose event loops owns the connection and writes the commands
     * @param scripts the scripts each new connection loads before it carries lock commands
     */
    RedisCommandPipeline(Redis redis, Vertx vertx, List<RedisScript> scripts) {
        this.redis = redis;
        this.scripts = scripts;
        this.writer = new WriterLoop(vertx, this::writeQueued);
    }

    /** Sends a command; cancelling the reply before the command was sent keeps it from being sent. */
    Uni<Response> send(Request request) {
        return Uni.createFrom().<List<Response>> emitter(emitter -> enqueue(List.of(request), emitter))
                .map(replies -> replies.get(0));
    }

    /**
     * Sends commands together on one connection, one after the other with nothing between them: for a command whose
     * meaning depends on the connection it runs on, such as {@code WAIT} after the write it waits for. The replies
     * come in order; the first error reply fails them all.
     */
    Uni<List<Response>> sendTogether(List<Request> requests) {
        return Uni.createFrom().emitter(emitter -> enqueue(requests, emitter));
    }

    private void enqueue(List<Request> requests, UniEmitter<? super List<Response>> emitter) {
        QueuedCommands queued = new QueuedCommands(requests, emitter);
        emitter.onTermination(queued::end);
        synchronized (this) {
            if (closed) {
                emitter.fail(new IllegalStateException("the lock connection to Redis is closed"));
                return;
            }
            queue.addLast(queued);
        }
        writer.request();
    }

    /** Writes queued commands in queue order while fewer than {@link #MAX_IN_FLIGHT} are in flight. */
    private void writeQueued() {
        while (true) {
            QueuedCommands next;
            RedisConnection conn;
            RedisLink sentOn;
            RedisLink opening = null;
            synchronized (this) {
                if (queue.isEmpty() || inFlight >= MAX_IN_FLIGHT) {
                    return;
                }
                if (link == null) {
                    link = new RedisLink(this, redis, replaced, scripts);
                    opening = link;
                }
            }
            if (opening != null) {
                opening.open();
                return;
            }
            synchronized (this) {
                sentOn = link;
                conn = link == null ? null : link.readyConnection();
                if (conn == null || queue.isEmpty() || inFlight >= MAX_IN_FLIGHT) {
                    return;
                }
                next = queue.pollFirst();
                if (next.ended()) {
                    continue;
                }
                if (inFlight++ == 0) {
                    busySinceNanos = System.nanoTime();
                }
            }
            Future<List<Response>> reply = next.requests().size() == 1
                    ? conn.send(next.requests().get(0)).map(Collections::singletonList)
                    : conn.batch(next.requests());
            reply.onComplete(result -> replied(next, sentOn, result));
        }
    }

    private void replied(QueuedCommands commands, RedisLink sentOn, AsyncResult<List<Response>> reply) {
        lastReplyNanos = System.nanoTime();
        synchronized (this) {
            inFlight--;
        }
        if (reply.failed() && onReplica(reply.cause())) {
            lost(sentOn, "the server is a replica now");
        }
        writer.request();
        commands.complete(reply);
    }

    /**
     * Whether a reply says the connection reached a replica: {@code READONLY}, or {@code MASTERDOWN} from a replica cut
     * off from its primary that serves no stale data ({@code replica-serve-stale-data no}). After a failover, a client
     * may open it to the former primary, which came back as a replica. The connection is then given up, so the next
     * one asks the sentinels for the primary again, instead of failing every lock command there for as long as it
     * lives.
     */
    private static boolean onReplica(Throwable failure) {
        return RedisErrors.is(failure, "READONLY") || RedisErrors.is(failure, "MASTERDOWN");
    }

    private void failQueued(Throwable cause) {
        List<QueuedCommands> failed;
        synchronized (this) {
            failed = List.copyOf(queue);
            queue.clear();
        }
        for (QueuedCommands queued : failed) {
            queued.fail(cause);
        }
    }

    /**
     * An operation got no answer within {@code timeout}. If the connection is still being opened after half that
     * time, or answered nothing at all for half that time while commands were in flight, it is given up and
     * replaced; a connection that answers, slowly, is kept.
     *
     * @param timeout the operation timeout
     */
    void noAnswer(Duration timeout) {
        long now = System.nanoTime();
        long half = timeout.toNanos() / 2;
        RedisLink silent;
        synchronized (this) {
            silent = link;
            if (silent == null) {
                return;
            }
            boolean ready = silent.readyConnection() != null;
            boolean stuckOpening = !ready && now - silent.openedNanos() >= half;
            boolean mute = ready && inFlight > 0 && now - Math.max(lastReplyNanos, busySinceNanos) >= half;
            if (!stuckOpening && !mute) {
                return;
            }
            link = null;
        }
        LOG.debugf("The lock connection to Redis answered nothing for %s; it is replaced", timeout);
        silent.drop();
        writer.request();
    }

    /** The context whose event loop writes every command. */
    Context writer() {
        return writer.context();
    }

    /**
     * Closes the connection; later commands fail at once.
     */
    void close() {
        RedisLink current;
        synchronized (this) {
            closed = true;
            current = link;
            link = null;
        }
        if (current != null) {
            current.drop();
        }
        failQueued(new IllegalStateException("the lock connection to Redis is closed"));
    }

    /** {@code opened} is about to carry the lock commands: the writing moves to its loop. */
    void carries(RedisConnection opened) {
        writer.moveTo(opened);
    }

    /** A connection could not be opened ({@code cause}): everything queued fails. */
    void openFailed(RedisLink failed, Throwable cause) {
        synchronized (this) {
            if (link == failed) {
                link = null;
            }
        }
        failQueued(cause);
    }

    /** A connection is open and ready to carry lock commands. */
    void opened() {
        writer.request();
    }

    /** A connection in use ended or failed ({@code why}): it is given up, and the next command opens a new one. */
    void lost(RedisLink lost, String why) {
        synchronized (this) {
            if (link != lost) {
                return;
            }
            link = null;
        }
        LOG.debugf("The lock connection to Redis was lost (%s); the next command opens a new one", why);
        lost.drop();
        writer.request();
    }
}
