package io.quarkiverse.lock.deployment.external;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With nothing configured, a store the core has never heard of is chosen over the in-memory one, without the warning
 * that locks are local to this JVM.
 */
class ExternalStoreChosenByAutoTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = ExternalStoreExtension.addTo(LockTestApplication.withoutDevServices(
            ExternalLockStore.class, ExternalLockStoreProducer.class, ExternalStoreExtension.class))
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records)
                    .filteredOn(record -> Level.WARNING.equals(record.getLevel()))
                    .as("warnings at startup").isEmpty());

    @Inject
    LockStore store;

    @Test
    void thePresentStoreIsChosen() {
        assertThat(store.name()).isEqualTo(ExternalLockStore.NAME);
    }
}
