package io.quarkiverse.lock.deployment.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.lock.rest.exception-mappers.enabled=false}: the lock exceptions reach the client as they did without
 * the mappers, as 500.
 */
class ExceptionMappersDisabledTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory(ItemResource.class)
            .overrideConfigKey("quarkus.lock.rest.exception-mappers.enabled", "false");

    @Inject
    LockRegistry locks;

    @Test
    void aBusyLockAnswersServerError() {
        ReactiveDistributedLock holder = locks.obtain("item-7");
        assertThat(holder.acquireOnce().await().atMost(TIMEOUT)).isTrue();
        try {
            given().post("/items/{id}", "7").then().statusCode(500);
        } finally {
            holder.release().await().atMost(TIMEOUT);
        }
    }

    @Test
    void aRefusedKeyAnswersServerError() {
        given().post("/items").then().statusCode(500);
    }
}
