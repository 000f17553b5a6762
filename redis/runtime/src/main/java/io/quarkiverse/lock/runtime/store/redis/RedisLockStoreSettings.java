package io.quarkiverse.lock.runtime.store.redis;

import java.time.Duration;

/**
 * How a Redis store works, validated.
 *
 * @param keyPrefix the namespace of lock keys, without braces
 * @param fencingRetention how long a fencing counter is kept after its last acquisition, positive
 * @param releaseNotifications whether releases are announced on the pub/sub channel {@code <keyPrefix>released}, and
 *        hand-overs to this store's waiters on {@code <keyPrefix>released:<instance id>}
 * @param replicas how many replicas must acknowledge an acquisition before it counts
 * @param connections how many pipelined connections carry the lock commands, at least 1; a key's commands always go
 *        over the same one
 */
public record RedisLockStoreSettings(String keyPrefix, Duration fencingRetention, boolean releaseNotifications,
        ReplicaAcknowledgement replicas, int connections) {

    /** The default of {@code quarkus.lock.redis.connections}. */
    public static final int DEFAULT_CONNECTIONS = 2;
}
