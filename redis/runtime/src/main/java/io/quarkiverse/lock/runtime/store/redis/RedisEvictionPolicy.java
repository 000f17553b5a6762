package io.quarkiverse.lock.runtime.store.redis;

import org.jboss.logging.Logger;

import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

/**
 * The startup check of the server's eviction settings: a server with a memory limit and an eviction policy may drop a
 * lock's key before its lease ends, and then grant the lock to a second holder.
 */
final class RedisEvictionPolicy {

    /** The store's category, where users look for what it reports. */
    private static final Logger LOG = Logger.getLogger(RedisLockStore.class);

    private RedisEvictionPolicy() {
    }

    /**
     * Reads the settings, where the server allows {@code CONFIG GET}, and reports at error level a server that may
     * evict keys; does not wait for the answer.
     *
     * @param pipeline the store's commands
     */
    static void check(RedisCommandPipeline pipeline) {
        pipeline.send(Request.cmd(Command.CONFIG).arg("GET").arg("maxmemory*")).subscribe().with(
                reply -> {
                    String problem = problem(reply);
                    if (problem != null) {
                        LOG.error(problem);
                    }
                },
                failure -> LOG.debugf("Could not read the Redis eviction policy (%s); make sure it is noeviction",
                        failure.getMessage()));
    }

    /**
     * @param reply the reply to {@code CONFIG GET maxmemory*}, as a map (RESP3) or a flat list of names and values
     * @return what is wrong with the server's eviction settings for locks, or {@code null} if nothing
     */
    static String problem(Response reply) {
        String limit = configValue(reply, "maxmemory");
        String policy = configValue(reply, "maxmemory-policy");
        if (limit == null || policy == null || "0".equals(limit) || "noeviction".equals(policy)) {
            return null;
        }
        return "Redis evicts keys when it reaches its memory limit (maxmemory " + limit + ", maxmemory-policy "
                + policy + "): it may drop a held lock before its lease ends and grant it to a second holder. Set "
                + "maxmemory-policy noeviction on the server that keeps the locks.";
    }

    private static String configValue(Response reply, String name) {
        if (reply.getKeys() != null && !reply.getKeys().isEmpty()) {
            Response value = reply.get(name);
            return value == null ? null : value.toString();
        }
        for (int i = 0; i + 1 < reply.size(); i += 2) {
            if (name.equals(reply.get(i).toString())) {
                return reply.get(i + 1).toString();
            }
        }
        return null;
    }
}
