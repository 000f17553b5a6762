package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The former name {@code quarkus.lock.redis.wait-timeout} still sets how long an acquisition waits for its replica
 * acknowledgements, and startup warns that it is deprecated, naming the new one.
 */
class DeprecatedReplicaTimeoutTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on(RedisServer.shared().uri(), UnreplicatedAcquisition.class)
            .overrideConfigKey("quarkus.lock.redis.wait-replicas", "1")
            .overrideConfigKey("quarkus.lock.redis.wait-timeout", "600ms")
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records).anySatisfy(record -> {
                assertThat(record.getLevel()).isEqualTo(Level.WARNING);
                assertThat(record.getMessage()).contains("quarkus.lock.redis.wait-timeout is deprecated")
                        .contains("rename it quarkus.lock.redis.wait-replicas-timeout");
            }));

    @Inject
    LockRegistry locks;

    @Test
    void theAcquisitionWaitsAsLongAsTheFormerNameSays() {
        UnreplicatedAcquisition.failsAfterWaiting(locks, 600);
    }
}
