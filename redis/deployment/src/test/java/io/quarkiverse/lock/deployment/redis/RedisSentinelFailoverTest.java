package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A Sentinel failover after the primary is killed, with {@code quarkus.lock.redis.wait-replicas=1}: an acquisition
 * answers only once the replica has it, so every lock held before the failover is still held after it, by the same
 * holder (see {@link SentinelFailover} for what else is checked).
 */
class RedisSentinelFailoverTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = SentinelFailover.app(RedisSentinelFailoverTest.class)
            .overrideConfigKey("quarkus.lock.redis.wait-replicas", "1")
            // the replica's acknowledgement on a loaded two-core machine, well within the 1 s operation timeout
            .overrideConfigKey("quarkus.lock.redis.wait-replicas-timeout", "500ms");

    @Inject
    LockRegistry locks;

    @Test
    void withAReplicaAcknowledgementEveryHeldLockSurvivesTheFailover() throws InterruptedException {
        SentinelFailover.Outcome outcome = SentinelFailover.run(RedisSentinelFailoverTest.class, locks);
        assertThat(outcome.survived()).as("locks the new primary still had").isEqualTo(SentinelFailover.LOCKS);
    }
}
