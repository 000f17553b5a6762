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
 * With both {@code quarkus.lock.redis.wait-replicas-timeout} and its former name set, the new name wins (the former
 * one's value, longer than the operation timeout, would fail startup) and startup warns that the former is ignored.
 */
class BothReplicaTimeoutsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.on(RedisServer.shared().uri(), UnreplicatedAcquisition.class)
            .overrideConfigKey("quarkus.lock.redis.wait-replicas", "1")
            .overrideConfigKey("quarkus.lock.redis.wait-replicas-timeout", "600ms")
            .overrideConfigKey("quarkus.lock.redis.wait-timeout", "1h")
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records).anySatisfy(record -> {
                assertThat(record.getLevel()).isEqualTo(Level.WARNING);
                assertThat(record.getMessage()).contains("quarkus.lock.redis.wait-timeout is deprecated and ignored")
                        .contains("quarkus.lock.redis.wait-replicas-timeout is set too and wins");
            }));

    @Inject
    LockRegistry locks;

    @Test
    void theNewNameWinsAndTheWarningSaysSo() {
        UnreplicatedAcquisition.failsAfterWaiting(locks, 600);
    }
}
