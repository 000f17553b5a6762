package io.quarkiverse.lock.deployment.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkiverse.lock.runtime.rest.CannotAcquireLockExceptionMapper;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An application's own mapper for a lock exception answers instead of the extension's; the extension's still answer
 * the exceptions the application maps no other way.
 */
class OwnExceptionMapperWinsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory(ItemResource.class, OwnBusyLockMapper.class)
            .overrideConfigKey("quarkus.log.category.\"io.quarkiverse.lock.runtime.rest\".level", "DEBUG")
            .setLogRecordPredicate(
                    record -> record.getLoggerName().equals(CannotAcquireLockExceptionMapper.class.getName()))
            .assertLogRecords(records -> assertThat(records).as("records of the extension's busy mapper").isEmpty());

    @Inject
    LockRegistry locks;

    @Test
    void theApplicationsMapperAnswersABusyLock() {
        ItemResource.whileLockedElsewhere(locks, "7",
                () -> given().post("/items/{id}", "7").then().statusCode(429).body(is(OwnBusyLockMapper.BODY)));
    }

    @Test
    void theExtensionsMappersAnswerTheOtherExceptions() {
        given().post("/items").then().statusCode(400).body(containsString(ItemResource.LOCK_NAME));
    }
}
