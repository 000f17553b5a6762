package io.quarkiverse.lock.runtime.store.redis;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import org.jboss.logging.Logger;

import io.netty.channel.EventLoop;
import io.vertx.core.impl.ContextInternal;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.impl.PooledRedisConnection;
import io.vertx.redis.client.impl.RedisStandaloneConnection;

/**
 * Finds the event loop a Redis connection reads and writes on. The Vert.x Redis client creates every pooled connection
 * on the context the client was created on, not on the caller's, and does not expose it: its {@code send} writes at
 * once only on that loop (from any other thread it queues a task there), and completes the reply on the caller's
 * context (from the connection's loop, another task). A {@link WriterLoop} on that loop has neither crossing.
 * <p>
 * The store's one reflection on private classes of Vert.x and Quarkus ({@code RedisStandaloneConnection}, and the
 * wrapper Quarkus puts around it), kept here; {@code WriterOnConnectionLoopTest} fails when an upgrade breaks it.
 */
final class ConnectionLoop {

    private static final Logger LOG = Logger.getLogger(ConnectionLoop.class);
    private static final Field CONTEXT = contextField();
    /** How many wrappers around the client's own connection are looked through. */
    private static final int MAX_WRAPPERS = 4;

    private ConnectionLoop() {
    }

    /**
     * @param conn a connection of the client, or a wrapper of one (Quarkus's client wraps each connection to observe
     *        its commands)
     * @return its event loop, or {@code null} when it cannot be known (a cluster or sentinel connection, a client
     *         version without that field, a native image without the reflection): the writer then stays where it is,
     *         correct but crossing threads
     */
    static EventLoop of(RedisConnection conn) {
        RedisConnection current = conn;
        for (int depth = 0; CONTEXT != null && current != null && depth < MAX_WRAPPERS; depth++) {
            if (current instanceof PooledRedisConnection pooled) {
                current = pooled.actual();
            }
            if (current instanceof RedisStandaloneConnection standalone) {
                try {
                    return ((ContextInternal) CONTEXT.get(standalone)).nettyEventLoop();
                } catch (ReflectiveOperationException | RuntimeException e) {
                    LOG.debugf("Could not read the Redis connection's event loop (%s)", e);
                    return null;
                }
            }
            current = wrapped(current);
        }
        return null;
    }

    /** The connection a wrapper delegates to: its one instance field that holds a connection, or {@code null}. */
    private static RedisConnection wrapped(RedisConnection wrapper) {
        RedisConnection found = null;
        for (Field field : wrapper.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) || !RedisConnection.class.isAssignableFrom(field.getType())) {
                continue;
            }
            if (found != null) {
                return null;
            }
            try {
                field.setAccessible(true);
                found = (RedisConnection) field.get(wrapper);
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.debugf("Could not unwrap the Redis connection %s (%s)", wrapper.getClass().getName(), e);
                return null;
            }
        }
        return found;
    }

    private static Field contextField() {
        try {
            Field field = RedisStandaloneConnection.class.getDeclaredField("context");
            field.setAccessible(true);
            return field.getType() == ContextInternal.class ? field : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.debugf("The Redis connection's event loop cannot be read (%s); lock commands are written on a loop of "
                    + "their own", e);
            return null;
        }
    }
}
