package io.quarkiverse.lock.deployment.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import java.util.logging.Level;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A {@code @Locked} key that the request's values make too long, or leave a part of, answers 400 Bad Request naming
 * the lock; an argument error that is not about a lock key still answers 500.
 */
class InvalidLockKeyAnswersBadRequestTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory(ItemResource.class)
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records).as("lock records at warning level or above")
                    .noneMatch(record -> record.getLevel().intValue() >= Level.WARNING.intValue()));

    @Test
    void aKeyTooLongFromAPathParameterAnswersBadRequest() {
        String id = "x".repeat(LockRegistry.MAX_KEY_LENGTH);
        given().post("/items/{id}", id).then().statusCode(400)
                .contentType(containsString("text/plain"))
                .body(containsString(ItemResource.LOCK_NAME), containsString(String.valueOf(LockRegistry.MAX_KEY_LENGTH)),
                        not(containsString(id)));
        given().post("/items/blocking/{id}", id).then().statusCode(400)
                .body(containsString(ItemResource.LOCK_NAME));
    }

    @Test
    void aKeyMissingAQueryParameterAnswersBadRequest() {
        given().post("/items").then().statusCode(400).body(containsString(ItemResource.LOCK_NAME));
        given().queryParam("id", "7").post("/items").then().statusCode(200).body(containsString("7"));
    }

    @Test
    void anArgumentErrorThatIsNotAboutALockKeyStillAnswersServerError() {
        given().get("/items/unrelated-argument-error").then().statusCode(500);
    }
}
