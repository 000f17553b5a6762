package io.quarkiverse.lock.runtime.store.redis;

import java.util.List;

import org.jboss.logging.Logger;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.impl.PooledRedisConnection;

/**
 * One connection of a {@link RedisCommandPipeline}, from its opening to its end; its state is guarded by its own
 * monitor, and it never calls the pipeline while holding it.
 * <p>
 * A new connection first kills, on the server, every connection it replaces ({@code CLIENT KILL ID}), loads the
 * scripts ({@code SCRIPT LOAD}), then learns its own id ({@code CLIENT ID}); only then does it carry lock commands. So
 * bytes of a replaced connection that the network delivers late (an acquisition, say) can never run after what the new
 * one sent, and every connection that carried a lock command can be killed in turn. A server that refuses
 * {@code CLIENT} (an ACL without it) leaves late bytes to the old socket's close. Loaded scripts spare the lock
 * commands a {@code NOSCRIPT} reply after a restart or failover: the script sent again with its source would reach the
 * server after commands sent later (a take-back, another handle's acquisition).
 */
final class RedisLink {

    private static final Logger LOG = Logger.getLogger(RedisLink.class);

    private final RedisCommandPipeline pipeline;
    private final Redis redis;
    private final ReplacedConnections replaced;
    private final List<RedisScript> scripts;
    private final long openedNanos = System.nanoTime();
    private RedisConnection connection;
    private long id = -1;
    private boolean ready;
    private boolean dropped;

    /**
     * @param pipeline the pipeline whose commands the connection carries
     * @param redis the client that opens the connection
     * @param replaced the connections to kill on the server before this one carries anything
     * @param scripts the scripts the connection loads before it carries lock commands
     */
    RedisLink(RedisCommandPipeline pipeline, Redis redis, ReplacedConnections replaced, List<RedisScript> scripts) {
        this.pipeline = pipeline;
        this.redis = redis;
        this.replaced = replaced;
        this.scripts = scripts;
    }

    /** When the link began opening, in {@link System#nanoTime()}. */
    long openedNanos() {
        return openedNanos;
    }

    /** The connection once it may carry lock commands, else {@code null}. */
    synchronized RedisConnection readyConnection() {
        return ready ? connection : null;
    }

    /** Opens the connection; on the pipeline's writing loop, where its replies complete too. */
    void open() {
        redis.connect().onComplete(opened -> {
            if (opened.failed()) {
                pipeline.openFailed(this, opened.cause());
                return;
            }
            RedisConnection conn = opened.result();
            boolean abandoned;
            synchronized (this) {
                connection = conn;
                abandoned = dropped;
            }
            if (abandoned) {
                discard(conn);
                return;
            }
            conn.exceptionHandler(failure -> pipeline.lost(this, failure.getMessage()));
            conn.endHandler(ignored -> pipeline.lost(this, "connection closed"));
            killReplaced(conn);
            loadScripts(conn);
            conn.send(Request.cmd(Command.CLIENT).arg("ID")).onComplete(answer -> {
                if (answer.failed() && isConnectionFailure(answer.cause())) {
                    return;
                }
                synchronized (this) {
                    if (dropped) {
                        return;
                    }
                    id = answer.succeeded() ? answer.result().toLong() : -1;
                }
                // this callback runs on the writing loop, so no write can slip in before the writing moves
                pipeline.carries(conn);
                synchronized (this) {
                    if (dropped) {
                        return;
                    }
                    ready = true;
                }
                pipeline.opened();
            });
        });
    }

    private void killReplaced(RedisConnection conn) {
        for (long killed : replaced.toKill()) {
            conn.send(Request.cmd(Command.CLIENT).arg("KILL").arg("ID").arg(killed)).onComplete(answer -> {
                if (answer.succeeded() || !isConnectionFailure(answer.cause())) {
                    replaced.remove(killed);
                }
                if (answer.failed() && !isConnectionFailure(answer.cause())) {
                    LOG.debugf("Could not kill the replaced Redis connection %d (%s)", killed,
                            answer.cause().getMessage());
                }
            });
        }
    }

    private void loadScripts(RedisConnection conn) {
        for (RedisScript script : scripts) {
            conn.send(script.loadRequest()).onComplete(answer -> {
                if (answer.failed() && !isConnectionFailure(answer.cause())) {
                    LOG.debugf("Could not load a lock script (%s); it is sent with its source when missing",
                            answer.cause().getMessage());
                }
            });
        }
    }

    /** Gives the connection up: it is closed, and killed on the server by the next one. */
    void drop() {
        RedisConnection conn;
        synchronized (this) {
            dropped = true;
            if (id >= 0) {
                replaced.add(id);
            }
            conn = connection;
        }
        if (conn != null) {
            discard(conn);
        }
    }

    /**
     * Closes the socket itself: closing a connection of the client's pool only returns it to the pool, where the next
     * connect could find the same silent socket again; a closed socket is dropped from the pool.
     */
    private static void discard(RedisConnection conn) {
        if (conn instanceof PooledRedisConnection pooled) {
            pooled.actual().forceClose();
        } else {
            conn.close();
        }
    }

    private static boolean isConnectionFailure(Throwable failure) {
        String message = failure.getMessage();
        return message == null || !(message.startsWith("ERR") || message.startsWith("NOPERM")
                || message.startsWith("WRONGPASS") || message.startsWith("NOAUTH"));
    }
}
