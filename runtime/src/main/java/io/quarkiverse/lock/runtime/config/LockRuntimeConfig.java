package io.quarkiverse.lock.runtime.config;

import java.time.Duration;
import java.util.Map;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithDefaults;
import io.smallrye.config.WithName;

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
     * The namespace of lock keys in the store: every key is stored under this prefix. A store may restrict it (the
     * Redis store refuses '{' and '}', which Redis Cluster reads as a hash tag).
     */
    @WithDefault("lock:")
    String keyPrefix();

    /**
     * Whether the spans of lock acquisitions and guarded sections carry the lock key as the {@code lock.key}
     * attribute, when {@code quarkus-opentelemetry} is present. Off by default: keys can hold user data (an order id,
     * an e-mail address), while span names and the other attributes carry only the lock's name (the {@code @Locked}
     * key template or the name given with {@code withMetricsName}).
     */
    @WithName("tracing.include-key")
    @WithDefault("false")
    boolean tracingIncludeKey();

    /**
     * How each leadership group runs, by the group's name. Every group named here must be declared at build time
     * ({@code quarkus.lock.leadership."<group>".enabled}); a group with no runtime property runs with the defaults.
     */
    @WithName("leadership")
    @WithDefaults
    Map<String, LeadershipConfig> leadership();
}
