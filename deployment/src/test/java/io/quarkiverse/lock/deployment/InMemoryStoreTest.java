package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.IdleLockEvictor;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The in-memory store chosen by configuration: the defaults apply, the startup says the locks are local, and the
 * idle evictor (and the store's sweep of expired locks) runs while the application does; the evictor stops at shutdown.
 */
class InMemoryStoreTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory()
            .overrideConfigKey("quarkus.log.category.\"io.quarkiverse.lock\".level", "DEBUG")
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> {
                assertThat(records).anyMatch(r -> r.getLevel().intValue() == Level.INFO.intValue()
                        && r.getMessage().contains("in-memory store: locks are local to this JVM"));
            })
            .setAfterAllCustomizer(InMemoryStoreTest::assertEvictorStopped);

    /** Where the test hands the evictor to the check that runs after shutdown, across class loaders. */
    private static final String EVICTOR = InMemoryStoreTest.class.getName() + ".evictor";

    @Inject
    LockRegistry registry;

    @Inject
    DefaultLockRegistry internal;

    @Inject
    LockSettings settings;

    @Inject
    IdleLockEvictor evictor;

    @Test
    void theInMemoryStoreServesTheLocks() {
        assertThat(internal.store().name()).isEqualTo("in-memory");
        assertThat(registry.obtain("a").acquireOnce().await().atMost(Duration.ofSeconds(5))).isTrue();
        assertThat(registry.obtain("a").acquireOnce().await().atMost(Duration.ofSeconds(5))).isFalse();
    }

    @Test
    void theConfigurationDefaultsApply() {
        assertThat(settings.defaultLease()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.defaultWait()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.evictIdleInterval()).isEqualTo(Duration.ofSeconds(1));
        assertThat(settings.keyPrefix()).isEqualTo("lock:");
        assertThat(settings.renewLease()).isFalse();
        assertThat(settings.operationTimeout()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void theEvictorRunsWhileTheApplicationRuns() {
        assertThat(evictor.isRunning()).isTrue();
        assertThat(((InMemoryLockStore) internal.store()).isSweeping()).as("the store sweeps its expired locks")
                .isTrue();
        System.getProperties().put(EVICTOR, evictor);
    }

    static void assertEvictorStopped() {
        Object evictor = System.getProperties().remove(EVICTOR);
        assertThat(evictor).as("the evictor seen while the application ran").isNotNull();
        try {
            assertThat(evictor.getClass().getMethod("isRunning").invoke(evictor)).isEqualTo(Boolean.FALSE);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
