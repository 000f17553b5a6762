package io.quarkiverse.lock.runtime.store.redis;

import java.time.Duration;

import org.jboss.logging.Logger;

/**
 * How long an acquisition waits for its replica acknowledgements, and the property that said so:
 * {@code quarkus.lock.redis.wait-replicas-timeout}, or its deprecated former name
 * {@code quarkus.lock.redis.wait-timeout}, which shared its name with the time to wait for a lock.
 *
 * @param property the property the value comes from, for messages about it
 * @param value the timeout
 */
record ReplicaTimeout(String property, Duration value) {

    /** The property's name. */
    static final String PROPERTY = "quarkus.lock.redis.wait-replicas-timeout";
    /** The property's former name, still read. */
    static final String DEPRECATED_PROPERTY = "quarkus.lock.redis.wait-timeout";

    private static final Duration DEFAULT = Duration.ofMillis(100);
    private static final Logger LOG = Logger.getLogger(RedisLockStore.class);

    /**
     * Reads the timeout, warning when the deprecated name is set: the new name wins when both are.
     *
     * @param redis the store's runtime configuration
     * @return the timeout and the property it comes from
     */
    @SuppressWarnings("removal")
    static ReplicaTimeout from(RedisLockRuntimeConfig redis) {
        if (redis.waitTimeout().isEmpty()) {
            return new ReplicaTimeout(PROPERTY, redis.waitReplicasTimeout().orElse(DEFAULT));
        }
        if (redis.waitReplicasTimeout().isPresent()) {
            LOG.warn(DEPRECATED_PROPERTY + " is deprecated and ignored: " + PROPERTY + " is set too and wins. Remove "
                    + DEPRECATED_PROPERTY + ".");
            return new ReplicaTimeout(PROPERTY, redis.waitReplicasTimeout().get());
        }
        LOG.warn(DEPRECATED_PROPERTY + " is deprecated: rename it " + PROPERTY + " (the time to wait for replica "
                + "acknowledgements; quarkus.lock.wait-timeout is the time to wait for a lock).");
        return new ReplicaTimeout(DEPRECATED_PROPERTY, redis.waitTimeout().get());
    }
}
