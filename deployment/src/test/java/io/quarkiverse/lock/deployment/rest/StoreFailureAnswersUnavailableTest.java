package io.quarkiverse.lock.deployment.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import java.util.logging.Level;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkiverse.lock.deployment.external.ExternalStoreExtension;
import io.quarkiverse.lock.runtime.rest.LockExceptionMapper;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A lock store that fails answers 503 Service Unavailable, naming the lock but not the key, and logs one warning line
 * with the store's error: no error record, no stack trace.
 */
class StoreFailureAnswersUnavailableTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = ExternalStoreExtension.addTo(LockTestApplication.withoutDevServices(
            ItemResource.class, DownLockStore.class, DownLockStore.Producer.class, ExternalStoreExtension.class,
            LogText.class),
            DownLockStore.NAME, DownLockStore.Producer.class)
            .overrideConfigKey("quarkus.lock.provider", DownLockStore.NAME)
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue())
            .assertLogRecords(records -> {
                assertThat(records).as("error records")
                        .noneMatch(record -> record.getLevel().intValue() >= Level.SEVERE.intValue());
                assertThat(records)
                        .filteredOn(record -> record.getLoggerName().equals(LockExceptionMapper.class.getName()))
                        .as("one warning line per unavailable answer, with the store's error, without a stack trace")
                        .hasSize(2)
                        .allMatch(record -> record.getLevel().intValue() == Level.WARNING.intValue()
                                && record.getThrown() == null
                                && LogText.of(record).contains("Connection refused")
                                && !LogText.of(record).contains("\n"));
            });

    @Test
    void aStoreFailureAnswersUnavailableNamingTheLockButNotTheKey() {
        String id = "customer-7-secret";
        given().post("/items/{id}", id).then().statusCode(503)
                .contentType(containsString("text/plain"))
                .body(containsString(ItemResource.LOCK_NAME), not(containsString(id)));
        given().post("/items/blocking/{id}", id).then().statusCode(503)
                .body(containsString(ItemResource.LOCK_NAME), not(containsString(id)));
    }
}
