package io.quarkiverse.lock.deployment.external;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.lock.provider} names a store the core has never heard of, and the locks live in it.
 */
class ExternalStoreChosenByNameTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = ExternalStoreExtension.addTo(LockTestApplication.withoutDevServices(
            ExternalLockStore.class, ExternalLockStoreProducer.class, ExternalStoreExtension.class))
            .overrideConfigKey("quarkus.lock.provider", ExternalLockStore.NAME);

    @Inject
    LockStore store;

    @Inject
    LockRegistry locks;

    @Test
    void theNamedStoreHoldsTheLocks() {
        assertThat(store.name()).isEqualTo(ExternalLockStore.NAME);
        ReactiveDistributedLock holder = locks.obtain("external-by-name");
        assertThat(holder.acquireOnce().await().atMost(Duration.ofSeconds(10))).isTrue();
        assertThat(store.isHeld("lock:external-by-name", "nobody").await().atMost(Duration.ofSeconds(10)))
                .as("held by the acquisition, not by another owner").isFalse();
        assertThat(locks.obtain("external-by-name").acquireOnce().await().atMost(Duration.ofSeconds(10)))
                .as("a second handle is refused by the external store").isFalse();
        assertThat(holder.release().await().atMost(Duration.ofSeconds(10))).isTrue();
    }
}
