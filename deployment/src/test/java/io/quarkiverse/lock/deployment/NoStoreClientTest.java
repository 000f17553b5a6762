package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.logging.Level;
import java.util.logging.LogRecord;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With neither the Redis nor the MongoDB client present and no provider configured, the locks use the in-memory
 * store, and the startup warns that they are local to this JVM, naming the client extensions that would bring a store.
 */
class NoStoreClientTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.withoutDevServices()
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records).filteredOn(record -> Level.WARNING.equals(record.getLevel()))
                    .extracting(LogRecord::getMessage)
                    .anySatisfy(message -> assertThat(message).contains("no lock store client extension",
                            "io.quarkus:quarkus-redis-client", "io.quarkus:quarkus-reactive-pg-client",
                            "local to this JVM")));

    @Inject
    DefaultLockRegistry registry;

    @Test
    void theInMemoryStoreIsChosen() {
        assertThat(registry.store().name()).isEqualTo("in-memory");
    }
}
