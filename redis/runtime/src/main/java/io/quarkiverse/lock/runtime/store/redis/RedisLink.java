package io.quarkiverse.lock.runtime.store.redis;

import java.util.List;
import java.util.Set;

import org.jboss.logging.Logger;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.impl.PooledRedisConnection;

/**
 * One connection of a {@link RedisChannel}, from its opening to its end.
 * <p>
 * A new connection first kills, on the server, every connection it replaces ({@code CLIENT KILL ID}), loads the
 * scripts ({@code SCRIPT LOAD}), then learns its own id ({@code CLIENT ID}); only then does it carry lock commands. So
 * bytes of a replaced connection that the network delivers late (an acquisition, say) can never run after what the new
 * one sent, and every connection that carried a lock command can be killed in turn. A server that refuses
 * {@code CLIENT} (an ACL without it) leaves late bytes to the old socket's close. Loaded scripts spare the lock commands
 * a {@code NOSCRIPT} reply after a restart or failover: the script sent again with its source would reach the server
 * after commands sent later (a take-back, another handle's acquisition).
 * <p>
 * Its state, and the ids of replaced connections not yet killed, are guarded by the channel's monitor, which also
 * guards which link is the channel's current one.
 */
final class RedisLink {

    private static final Logger LOG = Logger.getLogger(RedisChannel.class);

    private final RedisChannel channel;
    private final Redis redis;
    /** Ids of replaced connections not yet killed on the server, shared by the channel's successive links. */
    private final Set<Long> toKill;
    private final List<RedisScript> scripts;
    private final long openedNanos = System.nanoTime();
    private RedisConnection connection;
    private long id = -1;
    private boolean ready;
    private boolean dropped;

    /**
     * @param channel the channel whose commands the connection carries, and whose monitor guards the link
     * @param redis the client that opens the connection
     * @param toKill ids of replaced connections not yet killed on the server
     * @param scripts the scripts the connection loads before it carries lock commands
     */
    RedisLink(RedisChannel channel, Redis redis, Set<Long> toKill, List<RedisScript> scripts) {
        this.channel = channel;
        this.redis = redis;
        this.toKill = toKill;
        this.scripts = scripts;
    }

    /** @return when the link began opening, in {@link System#nanoTime()} */
    long openedNanos() {
        return openedNanos;
    }

    /** @return whether the connection is open and may carry lock commands; under the channel's monitor */
    boolean ready() {
        return ready;
    }

    /** @return the connection, once ready; under the channel's monitor */
    RedisConnection connection() {
        return connection;
    }

    /** Opens the connection; on the connection's event loop. */
    void open() {
        redis.connect().onComplete(opened -> {
            if (opened.failed()) {
                channel.openFailed(this, opened.cause());
                return;
            }
            RedisConnection conn = opened.result();
            boolean abandoned;
            Set<Long> kills;
            synchronized (channel) {
                connection = conn;
                abandoned = dropped;
                kills = Set.copyOf(toKill);
            }
            if (abandoned) {
                discard(conn);
                return;
            }
            conn.exceptionHandler(failure -> channel.lost(this, failure.getMessage()));
            conn.endHandler(ignored -> channel.lost(this, "connection closed"));
            for (long killed : kills) {
                conn.send(Request.cmd(Command.CLIENT).arg("KILL").arg("ID").arg(killed)).onComplete(answer -> {
                    if (answer.succeeded() || !isConnectionFailure(answer.cause())) {
                        synchronized (channel) {
                            toKill.remove(killed);
                        }
                    }
                    if (answer.failed() && !isConnectionFailure(answer.cause())) {
                        LOG.debugf("Could not kill the replaced Redis connection %d (%s)", killed,
                                answer.cause().getMessage());
                    }
                });
            }
            for (RedisScript script : scripts) {
                conn.send(script.loadRequest()).onComplete(answer -> {
                    if (answer.failed() && !isConnectionFailure(answer.cause())) {
                        LOG.debugf("Could not load a lock script (%s); it is sent with its source when missing",
                                answer.cause().getMessage());
                    }
                });
            }
            conn.send(Request.cmd(Command.CLIENT).arg("ID")).onComplete(answer -> {
                if (answer.failed() && isConnectionFailure(answer.cause())) {
                    return;
                }
                synchronized (channel) {
                    if (dropped) {
                        return;
                    }
                    id = answer.succeeded() ? answer.result().toLong() : -1;
                    channel.writeOnLoopOf(conn);
                    ready = true;
                }
                channel.opened();
            });
        });
    }

    /** Gives the connection up: it is closed, and killed on the server by the next one. */
    void drop() {
        RedisConnection conn;
        synchronized (channel) {
            dropped = true;
            if (id >= 0) {
                toKill.add(id);
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
