package io.quarkiverse.lock.deployment.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A Redis server with a memory limit and an eviction policy may drop a held lock's key and grant the lock twice:
 * the store says so at startup, at error level, naming the setting to change.
 */
class RedisEvictionPolicyTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.ownedBy(RedisEvictionPolicyTest.class, "--maxmemory", "100mb",
            "--maxmemory-policy", "volatile-lru")
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records).anySatisfy(record -> {
                assertThat(record.getLevel()).isEqualTo(Level.SEVERE);
                assertThat(record.getMessage()).contains("maxmemory-policy volatile-lru")
                        .contains("noeviction");
            }));

    @Inject
    LockRegistry locks;

    @Test
    void theLocksWorkAndTheRiskIsReportedAtStartup() {
        // Sent after the startup check on the same connection, so its answer comes after the check's.
        ReactiveDistributedLock lock = locks.obtain("evicting-" + UUID.randomUUID());
        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
    }
}
