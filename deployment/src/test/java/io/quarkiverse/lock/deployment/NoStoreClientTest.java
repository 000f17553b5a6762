package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With neither the Redis nor the MongoDB client present and no provider configured, the locks use the in-memory
 * store, and the startup warns that they are local to this JVM.
 */
class NoStoreClientTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records).anySatisfy(record -> {
                assertThat(record.getLevel()).isEqualTo(Level.WARNING);
                assertThat(record.getMessage()).contains("no lock store client extension")
                        .contains("local to this JVM");
            }));

    @Inject
    DefaultLockRegistry registry;

    @Test
    void theInMemoryStoreIsChosen() {
        assertThat(registry.store().name()).isEqualTo("in-memory");
    }
}
