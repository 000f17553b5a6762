package io.quarkiverse.lock.runtime.config;

import java.time.Duration;
import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Runtime configuration of Quarkus Lock.
 */
@ConfigMapping(prefix = "quarkus.lock")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface LockRuntimeConfig {

    /**
     * The lease of an acquired lock: the store frees it after this long unless it is released first. Used when an
     * acquisition names no lease. Must be positive.
     */
    @WithDefault("10s")
    Duration expireAfter();

    /**
     * How long {@code acquire()} and {@code acquireAndExecute(action)} wait for the lock before giving up. Zero means
     * one attempt. Must not be negative.
     */
    @WithDefault("10s")
    Duration waitTimeout();

    /**
     * How long one operation on the store (an attempt, a release, a renewal) may take before it fails with a
     * {@code LockException}, so that a store that does not answer never makes callers hang. Must be positive.
     */
    @WithDefault("5s")
    Duration operationTimeout();

    /**
     * Whether an acquisition renews its lease while held (at a third of the lease), so a holder that runs longer than
     * the lease keeps the lock as long as it lives. Renewal stops at release, at cancellation and at shutdown; if it
     * finds the lock lost, an {@code acquireAndExecute} action fails with {@code LockExpiredException}. Each handle
     * can choose otherwise with {@code withLeaseRenewal(boolean)}.
     */
    @WithDefault("false")
    boolean renewLease();

    /**
     * How often local per-key state (waiter queues, hold bookkeeping) that nobody uses is evicted from memory. State
     * that is held or waited on is never evicted. Must be positive.
     */
    @WithDefault("1s")
    Duration expireEvictIdle();

    /**
     * The namespace of lock keys in the store: every key is stored under this prefix. Must not contain '{' or '}',
     * which Redis Cluster reads as a hash tag.
     */
    @WithDefault("lock:")
    String keyPrefix();

    /**
     * The Redis store.
     */
    RedisLockConfig redis();

    /**
     * Configuration of the Redis store.
     */
    interface RedisLockConfig {

        /**
         * The name of the Quarkus Redis client to use (as in {@code quarkus.redis.<name>.hosts}); the default client
         * when not set.
         */
        Optional<String> clientName();

        /**
         * How long Redis keeps the fencing counter of a key after its last acquisition. Tokens never go backwards
         * within this time even if the Redis server's clock steps back; after it, the counter is gone and the next
         * token is taken from the server's clock, which is ahead of every earlier token. Bounds the memory a released
         * key costs. Must be positive.
         */
        @WithDefault("1h")
        Duration fencingRetention();

        /**
         * Whether a release is announced on a Redis pub/sub channel ({@code <key-prefix>released}) that wakes the
         * waiters of every instance at once. One subscription per application. Without it, or when a message is
         * lost, waiters find a free lock by polling with backoff. Turn off for servers or proxies without pub/sub.
         */
        @WithDefault("true")
        boolean releaseNotifications();

        /**
         * How many replicas must acknowledge an acquisition (Redis {@code WAIT}) before it counts, for a primary with
         * replicas (Sentinel or plain replication). When fewer acknowledge within {@code wait-timeout}, the
         * acquisition is released again and fails with a {@code LockException}: a failover then cannot lose an
         * acquired lock to a replica that never saw it. 0 (the default) does not wait. Not supported with
         * {@code quarkus.redis.client-type=cluster}, whose client sends {@code WAIT} to a node of its choosing.
         */
        @WithDefault("0")
        int waitReplicas();

        /**
         * How long an acquisition waits for its replica acknowledgements ({@code wait-replicas}). It holds the lock
         * connection meanwhile, so keep it short. Must be positive and shorter than
         * {@code quarkus.lock.operation-timeout}.
         */
        @WithDefault("100ms")
        Duration waitTimeout();
    }
}
