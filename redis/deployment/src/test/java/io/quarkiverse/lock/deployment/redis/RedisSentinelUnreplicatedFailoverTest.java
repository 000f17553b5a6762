package io.quarkiverse.lock.deployment.redis;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A Sentinel failover after the primary is killed, without replica acknowledgement (the default): replication is
 * asynchronous, so a lock acquired just before the primary died may be missing on the new primary. What still holds
 * (see {@link SentinelFailover}): a holder whose lock was lost is told so, no lock is granted twice as its holder sees
 * it, the locks work again, and fencing tokens rise.
 */
class RedisSentinelUnreplicatedFailoverTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = SentinelFailover.app(RedisSentinelUnreplicatedFailoverTest.class);

    @Inject
    LockRegistry locks;

    @Test
    void withoutReplicaAcknowledgementTheLocksWorkAgainAndLostHoldersKnow() throws InterruptedException {
        SentinelFailover.run(RedisSentinelUnreplicatedFailoverTest.class, locks);
    }
}
