package io.quarkiverse.lock.deployment.locked.invalid;

import java.util.List;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockKey;
import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.deployment.exception.LockedClassException;
import io.quarkiverse.lock.deployment.exception.LockedDurationException;
import io.quarkiverse.lock.deployment.exception.LockedKeyException;
import io.quarkiverse.lock.deployment.exception.LockedReturnTypeException;
import io.quarkiverse.lock.deployment.exception.LockedTargetException;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Every misuse of {@code @Locked} that the build can see fails it, and one build reports them all, each as an
 * exception of its own type that names the method (or class) and the problem. One method per rule, named after it.
 */
class LockedMisusesTest extends InvalidLockedMethod {

    @RegisterExtension
    static final QuarkusUnitTest APP = failingBuild(List.of(Misuses.class, LockedClass.class),
            misuse(LockedKeyException.class, "Misuses#emptyPlaceholder", "empty {}"),
            misuse(LockedKeyException.class, "Misuses#malformedTemplate", "'{' without its '}'"),
            misuse(LockedKeyException.class, "Misuses#unknownParameter(java.lang.String, int)", "orderId",
                    "[id, amount]"),
            misuse(LockedKeyException.class, "Misuses#templateAndLockKey", "@LockKey"),
            misuse(LockedReturnTypeException.class, "Misuses#future", "java.util.concurrent.Future",
                    "not supported"),
            misuse(LockedReturnTypeException.class, "Misuses#publisher", "Publisher", "not supported"),
            misuse(LockedReturnTypeException.class, "Misuses#skipOnPrimitive", "SKIP", "primitive"),
            misuse(LockedTargetException.class, "Misuses#staticMethod", "static"),
            misuse(LockedTargetException.class, "Misuses#privateMethod", "it is private"),
            misuse(LockedClassException.class, "@Locked on the class", "LockedMisusesTest$LockedClass"),
            misuse(LockedDurationException.class, "Misuses#malformedWait", "waitTime", "soon"),
            misuse(LockedDurationException.class, "Misuses#negativeWait", "waitTime", "zero or positive"),
            misuse(LockedDurationException.class, "Misuses#zeroLease", "expireAfter", "positive"),
            misuse(LockedDurationException.class, "Misuses#malformedHoldAtLeast", "holdAtLeast", "soon",
                    "not a duration"),
            misuse(LockedDurationException.class, "Misuses#negativeHoldAtLeast", "holdAtLeast", "zero or positive"),
            misuse(LockedDurationException.class, "Misuses#holdAtLeastLongerThanLease", "holdAtLeast = \"2s\"",
                    "longer than the lease", "expireAfter = \"1s\""))
            // else ArC fails the build at the private method before the extension's checks (PrivateMethodTest)
            .overrideConfigKey("quarkus.arc.fail-on-intercepted-private-method", "false");

    /** One method per misuse; the rules hold whatever a method returns, so most are {@code void}. */
    @ApplicationScoped
    static class Misuses {

        /** A template with an empty placeholder. */
        @Locked(key = "order-{}")
        void emptyPlaceholder(String id) {
        }

        /** A template with a brace without its pair. */
        @Locked(key = "order-{id")
        void malformedTemplate(String id) {
        }

        /** A template naming no parameter: the error names the parameters the method has. */
        @Locked(key = "order-{orderId}")
        void unknownParameter(String id, int amount) {
        }

        /** A template together with {@code @LockKey} parameters: the key would be ambiguous. */
        @Locked(key = "order-{id}")
        void templateAndLockKey(@LockKey String id) {
        }

        /** A plain {@code Future}: the lock would be released before the work ends. */
        @Locked
        Future<String> future() {
            return null;
        }

        /** A {@code Publisher} that is no {@code Multi}. */
        @Locked
        Flow.Publisher<String> publisher() {
            return null;
        }

        /** Skipping a method that returns a primitive: a skipped call has no value to return. */
        @Locked(whenBusy = Locked.WhenBusy.SKIP)
        int skipOnPrimitive() {
            return 1;
        }

        /** A static method: interceptors do not apply to it. */
        @Locked
        static void staticMethod() {
        }

        /** A private method (ArC's own failure turned off): interceptors do not apply to it. */
        @Locked
        private void privateMethod() {
        }

        void callPrivateMethod() {
            privateMethod();
        }

        /** A wait that is no duration. */
        @Locked(waitTime = "soon")
        void malformedWait() {
        }

        /** A negative wait. */
        @Locked(waitTime = "-1s")
        void negativeWait() {
        }

        /** A zero lease. */
        @Locked(expireAfter = "0s")
        void zeroLease() {
        }

        /** A minimum hold that is no duration. */
        @Locked(waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "soon")
        void malformedHoldAtLeast() {
        }

        /** A negative minimum hold. */
        @Locked(waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "-1s")
        void negativeHoldAtLeast() {
        }

        /** A minimum hold longer than the lease the annotation gives: the lease would free the lock first. */
        @Locked(waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s", expireAfter = "1s")
        void holdAtLeastLongerThanLease() {
        }
    }

    /** {@code @Locked} on a class: it is for methods. */
    @Locked
    @ApplicationScoped
    static class LockedClass {
        void pay() {
        }
    }
}
