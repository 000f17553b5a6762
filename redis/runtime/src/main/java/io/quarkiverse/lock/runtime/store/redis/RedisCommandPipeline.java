package io.quarkiverse.lock.runtime.store.redis;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jboss.logging.Logger;

import io.netty.channel.EventLoop;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * One connection that carries all lock commands of the application, pipelined: commands do not queue for a pooled
 * connection, so a burst of lock operations cannot exhaust the client's pool, and many commands share each round
 * trip. Commands in flight when the connection is lost fail, and the caller sees a {@code LockException}.
 * <p>
 * Order: commands reach the server in the order {@link #send} was called, whatever threads call it. They pass one
 * queue, and only one event-loop thread, the one the connection belongs to, writes them, in queue order (Vert.x
 * writes at once on the connection's own loop but queues a task from any other thread, so writers on several threads
 * could overtake each other). So a take-back sent after its acquisition always runs after it. The writer starts on an
 * event loop of its own, which opens the first connection; once a connection is ready, the writer moves to that
 * connection's event loop ({@link ConnectionLoop}), so that neither the write nor the reply crosses threads (each
 * crossing is a wake-up of another thread, and it halved the uncontended throughput). At most
 * {@link #MAX_IN_FLIGHT} commands are in flight, well below the client's own limit on unanswered commands per
 * connection ({@code quarkus.redis.max-waiting-handlers}, 2048 by default, past which it refuses commands with "Redis
 * waiting queue is full"); later ones wait in the queue, and one whose caller gave up meanwhile is never sent.
 * <p>
 * Connections: the commands go over one {@link RedisLink} at a time, which kills on the server the connections it
 * replaces before it carries anything. A connection is replaced when it ends or fails, and when an operation timed out
 * while the connection answered nothing for half the timeout (one that swallows traffic never fails by itself), or was
 * still being opened.
 */
final class RedisChannel {

    /** Commands in flight at most; below the client's default limit of 2048, which users may lower. */
    static final int MAX_IN_FLIGHT = 1000;
    private static final Logger LOG = Logger.getLogger(RedisChannel.class);

    private final Redis redis;
    private final VertxInternal vertx;
    /** The context whose event loop writes every command; moves to the connection's loop once it is known. */
    private volatile ContextInternal context;
    private final ArrayDeque<QueuedCommands> queue = new ArrayDeque<>();
    /** Ids of replaced connections not yet killed on the server; guarded by this. */
    private final Set<Long> toKill = new LinkedHashSet<>();
    /** The connection being opened or in use, or {@code null}; guarded by this. */
    private RedisLink link;
    private final List<RedisScript> scripts;
    private int inFlight;
    private boolean closed;
    private boolean pumpScheduled;
    /** Only touched on the connection's event loop. */
    private boolean pumping;
    private boolean pumpAgain;
    private volatile long lastReplyNanos = System.nanoTime();
    private volatile long busySinceNanos;

    /**
     * @param redis the client whose configuration (hosts, credentials, TLS) the connection uses
     * @param vertx the Vert.x instance, one of whose event loops owns the connection and writes the commands
     * @param scripts the scripts each new connection loads before it carries lock commands
     */
    RedisChannel(Redis redis, Vertx vertx, List<RedisScript> scripts) {
        this.redis = redis;
        this.scripts = scripts;
        this.vertx = (VertxInternal) vertx;
        this.context = this.vertx.createEventLoopContext();
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
        QueuedCommands queued = new QueuedCommands(requests, emitter);
        emitter.onTermination(queued::end);
        synchronized (this) {
            if (closed) {
                emitter.fail(new IllegalStateException("the lock connection to Redis is closed"));
                return;
            }
            queue.addLast(queued);
        }
        schedulePump();
    }

    private void schedulePump() {
        if (context.nettyEventLoop().inEventLoop()) {
            pump();
            return;
        }
        synchronized (this) {
            if (pumpScheduled) {
                return;
            }
            pumpScheduled = true;
        }
        context.runOnContext(ignored -> {
            synchronized (this) {
                pumpScheduled = false;
            }
            pump();
        });
    }

    /**
     * Moves the writer to the event loop of {@code conn}, the connection that is about to carry the lock commands.
     * Called on the writer's current loop, under this object's monitor, before the connection carries any lock
     * command: nothing was written on it but its set-up commands, which were answered, so nothing written later can
     * overtake them. A pump already scheduled on the previous loop finds it is no longer the writer and hands over.
     */
    void writeOnLoopOf(RedisConnection conn) {
        EventLoop loop = ConnectionLoop.of(conn);
        ContextInternal current = context;
        if (loop != null && loop != current.nettyEventLoop()) {
            context = vertx.createEventLoopContext(loop, current.workerPool(), current.classLoader());
        }
    }

    /**
     * Writes queued commands to the connection, in queue order, while fewer than {@link #MAX_IN_FLIGHT} are in
     * flight. Runs only on the connection's event loop; a call made while it runs (a reply, a failure) makes it
     * look again instead of writing in between.
     */
    private void pump() {
        if (!context.nettyEventLoop().inEventLoop()) {
            // Scheduled on the loop that wrote before the writer moved to the connection's loop.
            schedulePump();
            return;
        }
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

    private void writeQueued() {
        while (true) {
            QueuedCommands next;
            RedisConnection conn;
            RedisLink opening = null;
            synchronized (this) {
                if (queue.isEmpty() || inFlight >= MAX_IN_FLIGHT) {
                    return;
                }
                if (link == null) {
                    link = new RedisLink(this, redis, toKill, scripts);
                    opening = link;
                }
            }
            if (opening != null) {
                opening.open();
                return;
            }
            synchronized (this) {
                if (link == null || queue.isEmpty() || inFlight >= MAX_IN_FLIGHT) {
                    return;
                }
                if (!link.ready()) {
                    return;
                }
                next = queue.pollFirst();
                if (next.ended()) {
                    continue;
                }
                if (inFlight++ == 0) {
                    busySinceNanos = System.nanoTime();
                }
                conn = link.connection();
            }
            Future<List<Response>> reply = next.requests().size() == 1
                    ? conn.send(next.requests().get(0)).map(Collections::singletonList)
                    : conn.batch(next.requests());
            reply.onComplete(result -> replied(next, result));
        }
    }

    private void replied(QueuedCommands commands, AsyncResult<List<Response>> reply) {
        lastReplyNanos = System.nanoTime();
        synchronized (this) {
            inFlight--;
        }
        schedulePump();
        commands.complete(reply);
    }

    /** Fails everything queued: the connection it waited for could not be opened. */
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
     * replaced (and killed on the server once a new one is open); a connection that answers, slowly, is kept.
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
            boolean stuckOpening = !silent.ready() && now - silent.openedNanos() >= half;
            boolean mute = silent.ready() && inFlight > 0
                    && now - Math.max(lastReplyNanos, busySinceNanos) >= half;
            if (!stuckOpening && !mute) {
                return;
            }
            link = null;
        }
        LOG.debugf("The lock connection to Redis answered nothing for %s; it is replaced", timeout);
        silent.drop();
        schedulePump();
    }

    /**
     * @return the context whose event loop writes every command
     */
    Context writer() {
        return context;
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
        schedulePump();
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
        schedulePump();
    }
}
