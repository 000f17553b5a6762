package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.reliability.SentinelFailoverRun.Failover;
import io.quarkiverse.lock.testsupport.RedisSentinelGroup;

/**
 * Sentinel failovers (a primary, a replica, three sentinels: {@link RedisSentinelGroup}) while three JVM processes
 * hold and wait for locks on four keys ({@link SentinelFailoverRun}): a forced one ({@code SENTINEL FAILOVER}), then
 * a crash of the new primary ({@code SIGKILL}). With {@code quarkus.lock.redis.wait-replicas=1} an acquisition counts
 * only once the replica has it, so neither loses a lock: no two sections of a key overlap, tokens rise, and the history
 * of acquisitions and releases fits a fenced mutex. Without it, a failover can lose a lock and grant it again: what it
 * costs is measured and printed (holds found lost at release, overlaps, and overlaps of which neither holder was
 * told), and what is still promised is asserted: the processes ride it out and go on on the new primary, and a hold
 * granted before another was asked for has the lower fencing token. The sentinels' periods are shortened
 * ({@link RedisSentinelGroup#shortenPeriods()}), so that a former primary rejoins as a replica sooner.
 */
class RedisSentinelProcessesIT {

    @BeforeAll
    static void shortenSentinelPeriods() {
        group().shortenPeriods();
    }

    @Test
    void noFailoverLosesALockThatTheReplicaAcknowledged() throws Exception {
        SentinelFailoverRun.Figures figures = SentinelFailoverRun.run(group(),
                List.of("-Dquarkus.lock.redis.wait-replicas=1"), Failover.FORCED, Failover.CRASH);
        System.out.println("Sentinel failovers, wait-replicas=1: " + figures.describe());
        assertThat(figures.sections()).isGreaterThanOrEqualTo(figures.minimumSections());
        assertThat(figures.violations()).as("overlapping sections, tokens not rising").isEmpty();
        assertThat(figures.lost()).as("holds found lost at release").isZero();
        assertThat(figures.history().violations())
                .as(figures.history().describe(figures.failovers().get(0).asked(), 5)).isEmpty();
    }

    @Test
    void withoutReplicaAcknowledgementAFailoverIsRiddenOutAndTokensStillRise() throws Exception {
        SentinelFailoverRun.Figures figures = SentinelFailoverRun.run(group(), List.of(), Failover.FORCED,
                Failover.CRASH);
        System.out.println("Sentinel failovers, no wait-replicas: " + figures.describe());
        assertThat(figures.sections()).isGreaterThanOrEqualTo(figures.minimumSections());
        assertThat(figures.history().violations()).as("a hold granted before another was asked for has the lower "
                + "token: %s", figures.history().describe(figures.failovers().get(0).asked(), 10))
                .allMatch(violation -> violation.kind().equals("OVERLAP"));
    }

    private static RedisSentinelGroup group() {
        return RedisSentinelGroup.ownedBy(RedisSentinelProcessesIT.class);
    }
}
