package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.local.IdleLockEvictor;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The in-memory store chosen by configuration: the defaults apply, the startup says the locks are local, and the
 * idle evictor runs while the application does and stops at shutdown.
 */
class InMemoryStoreTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.lock.provider", "in-memory")
            .overrideConfigKey("quarkus.log.category.\"io.quarkiverse.lock\".level", "DEBUG")
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> {
                assertThat(records).anyMatch(r -> r.getLevel().intValue() == Level.INFO.intValue()
                        && r.getMessage().contains("in-memory store: locks are local to this JVM"));
                assertThat(records).anyMatch(r -> r.getMessage().contains("Idle lock evictor stopped"));
            });

    @Inject
    LockRegistry registry;

    @Inject
    LockSettings settings;

    @Inject
    IdleLockEvictor evictor;

    @Test
    void theInMemoryStoreServesTheLocks() {
        assertThat(((DefaultLockRegistry) registry).store().name()).isEqualTo("in-memory");
        assertThat(registry.obtain("a").acquireOnce().await().atMost(Duration.ofSeconds(5))).isTrue();
        assertThat(registry.obtain("a").acquireOnce().await().atMost(Duration.ofSeconds(5))).isFalse();
    }

    @Test
    void theConfigurationDefaultsApply() {
        assertThat(settings.defaultLease()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.defaultWait()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.evictIdleInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.keyPrefix()).isEqualTo("lock:");
    }

    @Test
    void theEvictorRunsWhileTheApplicationRuns() {
        assertThat(evictor.isRunning()).isTrue();
    }
}
