package io.quarkiverse.lock.runtime.store.redis;

import java.time.Duration;
import java.util.Optional;

import io.quarkus.runtime.annotations.ConfigDocDefault;
import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Runtime configuration of the Redis store. The client is chosen at build time ({@link RedisLockBuildTimeConfig}).
 */
@ConfigMapping(prefix = "quarkus.lock.redis")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface RedisLockRuntimeConfig {

    /**
     * How long Redis keeps the fencing counter of a key after its last acquisition. Tokens never go backwards within
     * this time even if the Redis server's clock steps back; after it, the counter is gone and the next token is taken
     * from the server's clock, which is ahead of every earlier token. Bounds the memory a released key costs. Must be
     * positive.
     */
    @WithDefault("1h")
    Duration fencingRetention();

    /**
     * Whether a release is announced on a Redis pub/sub channel ({@code <key-prefix>released}) that wakes the waiters
     * of every instance at once. One subscription per application. Without it, or when a message is lost, waiters
     * find a free lock by polling with backoff. Turn off for servers or proxies without pub/sub.
     */
    @WithDefault("true")
    boolean releaseNotifications();

    /**
     * How many connections carry the lock commands, each pipelined (many commands in flight on it). A key's commands
     * always go over the same connection, so they reach the server in the order they were sent; keys are spread over
     * the connections by their hash. More than one lets the server and the application's event loops work at the same
     * time: on two cores, two connections carried 1.6 to 1.75 times the uncontended throughput of one from 4 to 64
     * concurrent loops (see the benchmarks). At least 1.
     */
    @WithDefault("2")
    int connections();

    /**
     * How many replicas must acknowledge an acquisition (Redis {@code WAIT}) before it counts, for a primary with
     * replicas (Sentinel or plain replication). When fewer acknowledge within {@code wait-replicas-timeout}, the
     * acquisition is released again and fails with a {@code LockException}: a failover then cannot lose an acquired
     * lock to a replica that never saw it. 0 (the default) does not wait. Not supported with
     * {@code quarkus.redis.client-type=cluster}, whose client sends {@code WAIT} to a node of its choosing.
     */
    @WithDefault("0")
    int waitReplicas();

    /**
     * How long an acquisition waits for its replica acknowledgements ({@code wait-replicas}); not to be confused with
     * {@code quarkus.lock.wait-timeout}, the time to wait for a lock. It holds the lock connection meanwhile, so keep
     * it short. Must be positive and shorter than {@code quarkus.lock.operation-timeout}.
     */
    // Optional, defaulted by ReplicaTimeout: while the former name works, unset must be told apart from set.
    @ConfigDocDefault("100ms")
    Optional<Duration> waitReplicasTimeout();

    /**
     * The former name of {@code wait-replicas-timeout}, which wins when both are set; startup warns while it is used.
     *
     * @deprecated use {@code quarkus.lock.redis.wait-replicas-timeout}
     */
    @Deprecated(forRemoval = true)
    Optional<Duration> waitTimeout();
}
