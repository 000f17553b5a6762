package io.quarkiverse.lock.deployment.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkiverse.lock.runtime.rest.CannotAcquireLockExceptionMapper;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A lock held elsewhere answers 409 Conflict, naming the lock but not the key, without {@code Retry-After} (nobody
 * knows when the holder is done), and logs one debug line: no error, no stack trace.
 */
class BusyLockAnswersConflictTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory(ItemResource.class)
            .overrideConfigKey("quarkus.log.category.\"io.quarkiverse.lock.runtime.rest\".level", "DEBUG")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    || record.getLoggerName().startsWith("io.quarkiverse.lock.runtime.rest"))
            .assertLogRecords(records -> {
                assertThat(records).as("records at warning level or above").noneMatch(
                        record -> record.getLevel().intValue() >= Level.WARNING.intValue());
                assertThat(records).filteredOn(
                        record -> record.getLoggerName().equals(CannotAcquireLockExceptionMapper.class.getName()))
                        .as("one debug line per busy answer, without a stack trace").hasSize(2)
                        .allMatch(record -> record.getLevel().intValue() == Level.FINE.intValue()
                                && record.getThrown() == null);
            });

    @Inject
    LockRegistry locks;

    @Test
    void aLockHeldElsewhereAnswersConflictNamingTheLockButNotTheKey() {
        String id = "customer-7-secret";
        ItemResource.whileLockedElsewhere(locks, id, () -> {
            given().post("/items/{id}", id).then().statusCode(409)
                    .contentType(containsString("text/plain"))
                    .header("Retry-After", (String) null)
                    .body(containsString(ItemResource.LOCK_NAME), not(containsString(id)));
            given().post("/items/blocking/{id}", id).then().statusCode(409)
                    .body(containsString(ItemResource.LOCK_NAME), not(containsString(id)));
        });
        given().post("/items/{id}", id).then().statusCode(200).body(containsString(id));
    }
}
