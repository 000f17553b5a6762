package io.quarkiverse.lock.runtime.config;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigGroup;
import io.smallrye.config.WithDefault;

/**
 * How one leadership group runs on this instance. The group itself is declared at build time, with
 * {@code quarkus.lock.leadership."<group>".enabled}.
 */
@ConfigGroup
public interface LeadershipConfig {

    /**
     * The lease of the group's lock: how long after the leader's last confirmed renewal the store keeps the lock for
     * it. After a leader dies, another instance is elected within about this long (plus the renew interval at worst).
     * Must be positive.
     */
    @WithDefault("10s")
    Duration lease();

    /**
     * How often the leader renews the lease: each renewal is sent this long after the one before it (or the election)
     * was sent, one at a time. Must be positive and shorter than the lease minus the safety margin, so that a leader
     * renews at least once before it stops believing it leads; shorter leaves room for renewals that fail.
     */
    @WithDefault("3s")
    Duration renewInterval();

    /**
     * How long before the end of its lease the leader stops believing it leads: {@code isLeader()} turns false, and
     * the work guarded by the term is cancelled, this long before the lease can end in the store, counted by this
     * JVM's monotonic clock from when the last confirmed request was sent. It covers the time guarded work takes to
     * stop, and the store's clock running faster than this JVM's. Must be positive and shorter than the lease.
     */
    @WithDefault("1s")
    Duration safetyMargin();

    /**
     * Whether this instance joins the group when the application starts. When false, it takes part only once the
     * application calls {@code join()} on the group.
     */
    @WithDefault("true")
    boolean joinAtStartup();
}
