package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.lock.redis.wait-replicas-timeout} sets how long an acquisition waits for its replica
 * acknowledgements, without a warning.
 */
class ReplicaTimeoutTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on(RedisServer.shared().uri(), UnreplicatedAcquisition.class)
            .overrideConfigKey("quarkus.lock.redis.wait-replicas", "1")
            .overrideConfigKey("quarkus.lock.redis.wait-replicas-timeout", "600ms")
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records)
                    .noneSatisfy(record -> assertThat(record.getMessage()).contains("wait-timeout")));

    @Inject
    LockRegistry locks;

    @Test
    void theAcquisitionWaitsAsLongAsTheNewNameSays() {
        UnreplicatedAcquisition.failsAfterWaiting(locks, 600);
    }
}
