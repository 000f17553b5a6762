package io.quarkiverse.lock.deployment.rest;

import static io.restassured.RestAssured.given;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.lock.rest.exception-mappers.enabled=false}: the lock exceptions reach the client as they did without
 * the mappers, as 500.
 */
class ExceptionMappersDisabledTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory(ItemResource.class)
            .overrideConfigKey("quarkus.lock.rest.exception-mappers.enabled", "false");

    @Inject
    LockRegistry locks;

    @Test
    void aBusyLockAnswersServerError() {
        ItemResource.whileLockedElsewhere(locks, "7", () -> given().post("/items/{id}", "7").then().statusCode(500));
    }

    @Test
    void aRefusedKeyAnswersServerError() {
        given().post("/items").then().statusCode(500);
    }
}
