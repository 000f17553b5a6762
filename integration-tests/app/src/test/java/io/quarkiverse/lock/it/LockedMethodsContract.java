package io.quarkiverse.lock.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code @Locked} endpoints of every return type, over HTTP, on the store the application was built with: concurrent
 * calls run one at a time, and calls that do not wait fail or skip while the lock is held elsewhere. A store module
 * binds it twice: {@code @QuarkusTest}, and a {@code @QuarkusIntegrationTest} subclass for the packaged application.
 */
public abstract class LockedMethodsContract {

    private static final int REQUESTS = 20;

    @ParameterizedTest
    @ValueSource(strings = { "uni", "multi", "completion-stage", "blocking", "void" })
    void concurrentCallsRunOneAtATimeAndLoseNoIncrement(String returnType) {
        String counter = returnType + "-" + UUID.randomUUID();

        List<Integer> statuses = Concurrently.send(REQUESTS,
                () -> given().post("/locked/{returnType}/{counter}", returnType, counter).statusCode());

        assertThat(statuses).hasSize(REQUESTS).containsOnly("void".equals(returnType) ? 204 : 200);
        given().get("/locked/{counter}", counter).then().statusCode(200).body(is(String.valueOf(REQUESTS)));
        given().get("/locked/{counter}/overlaps", counter).then().statusCode(200).body(is("0"));
    }

    @Test
    void aLockHeldElsewhereFailsACallThatDoesNotWaitAndFreesItOnceReleased() {
        String counter = lockedElsewhere("once");

        given().post("/locked/once/{counter}", counter).then().statusCode(409)
                .body(containsString("once-{counter}"), not(containsString(counter)));

        releaseThenCall("once", counter);
    }

    @Test
    void aLockHeldElsewhereSkipsASkippingCall() {
        String counter = lockedElsewhere("skip");

        given().post("/locked/skip/{counter}", counter).then().statusCode(204);
        given().get("/locked/{counter}", counter).then().body(is("0"));

        releaseThenCall("skip", counter);
    }

    /**
     * Holds, from outside the endpoint, the lock of a new counter's call to {@code /locked/<endpoint>}.
     *
     * @return the counter
     */
    private static String lockedElsewhere(String endpoint) {
        String counter = UUID.randomUUID().toString();
        given().post("/locks/{key}", endpoint + "-" + counter).then().statusCode(200);
        return counter;
    }

    /** Releases the lock {@link #lockedElsewhere} took; a call of the endpoint then runs, and the counter is 1. */
    private static void releaseThenCall(String endpoint, String counter) {
        given().delete("/locks/{key}", endpoint + "-" + counter).then().statusCode(200).body(is("true"));
        given().post("/locked/{endpoint}/{counter}", endpoint, counter).then().statusCode(200).body(is("1"));
    }
}
