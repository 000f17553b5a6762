package io.quarkiverse.lock.deployment.locked.invalid;

import java.util.concurrent.Flow;
import java.util.concurrent.Future;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockKey;
import io.quarkiverse.lock.Locked;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Every misuse of {@code @Locked} that the build can see fails it, and one build reports them all, each in an error
 * of its own that names the method (or class) and the problem. One bean per rule, named after it.
 */
class InvalidLockedMethodsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = InvalidLockedMethod.failingBuild(
            InvalidLockedMethod.problem(EmptyPlaceholder.class, "EmptyPlaceholder#pay", "empty {}"),
            InvalidLockedMethod.problem(MalformedTemplate.class, "MalformedTemplate#pay", "'{' without its '}'"),
            InvalidLockedMethod.problem(UnknownParameter.class, "UnknownParameter#pay(java.lang.String)", "orderId",
                    "[id]"),
            InvalidLockedMethod.problem(TemplateAndLockKey.class, "TemplateAndLockKey#pay", "@LockKey"),
            InvalidLockedMethod.problem(FutureReturnType.class, "FutureReturnType#pay",
                    "java.util.concurrent.Future", "not supported"),
            InvalidLockedMethod.problem(PublisherReturnType.class, "PublisherReturnType#pay", "Publisher",
                    "not supported"),
            InvalidLockedMethod.problem(SkipOnPrimitive.class, "SkipOnPrimitive#count", "SKIP", "primitive"),
            InvalidLockedMethod.problem(StaticMethod.class, "StaticMethod#pay", "static"),
            InvalidLockedMethod.problem(PrivateMethod.class, "PrivateMethod#pay", "it is private"),
            InvalidLockedMethod.problem(LockedClass.class, "@Locked on the class", "InvalidLockedMethodsTest$LockedClass"),
            InvalidLockedMethod.problem(MalformedWait.class, "MalformedWait#pay", "waitTime", "soon"),
            InvalidLockedMethod.problem(NegativeWait.class, "NegativeWait#pay", "waitTime", "zero or positive"),
            InvalidLockedMethod.problem(ZeroLease.class, "ZeroLease#pay", "expireAfter", "positive"),
            InvalidLockedMethod.problem(MalformedHoldAtLeast.class, "MalformedHoldAtLeast#pay", "holdAtLeast", "soon",
                    "not a duration"),
            InvalidLockedMethod.problem(NegativeHoldAtLeast.class, "NegativeHoldAtLeast#pay", "holdAtLeast",
                    "zero or positive"),
            InvalidLockedMethod.problem(HoldAtLeastLongerThanLease.class, "HoldAtLeastLongerThanLease#pay",
                    "holdAtLeast = \"2s\"", "longer than the lease", "expireAfter = \"1s\""))
            // else ArC fails the build at the private method before the extension's checks (PrivateMethodTest)
            .overrideConfigKey("quarkus.arc.fail-on-intercepted-private-method", "false");

    @Test
    void theBuildFails() {
        Assertions.fail("the build must fail");
    }

    /** A template with an empty placeholder. */
    @ApplicationScoped
    static class EmptyPlaceholder {
        @Locked(key = "order-{}")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }

    /** A template with a brace without its pair. */
    @ApplicationScoped
    static class MalformedTemplate {
        @Locked(key = "order-{id")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }

    /** A template naming no parameter: the error names the parameters the method has. */
    @ApplicationScoped
    static class UnknownParameter {
        @Locked(key = "order-{orderId}")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }

    /** A template together with {@code @LockKey} parameters: the key would be ambiguous. */
    @ApplicationScoped
    static class TemplateAndLockKey {
        @Locked(key = "order-{id}")
        Uni<String> pay(@LockKey String id) {
            return Uni.createFrom().item(id);
        }
    }

    /** A plain {@code Future}: the lock would be released before the work ends. */
    @ApplicationScoped
    static class FutureReturnType {
        @Locked
        Future<String> pay(String id) {
            return null;
        }
    }

    /** A {@code Publisher} that is no {@code Multi}. */
    @ApplicationScoped
    static class PublisherReturnType {
        @Locked
        Flow.Publisher<String> pay(String id) {
            return null;
        }
    }

    /** Skipping a method that returns a primitive: a skipped call has no value to return. */
    @ApplicationScoped
    static class SkipOnPrimitive {
        @Locked(whenBusy = Locked.WhenBusy.SKIP)
        int count(String id) {
            return 1;
        }
    }

    /** A static method: interceptors do not apply to it. */
    @ApplicationScoped
    static class StaticMethod {
        @Locked
        static Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }

    /** A private method, with ArC's own failure turned off: the extension says interceptors do not apply to it. */
    @ApplicationScoped
    static class PrivateMethod {
        @Locked
        private Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }

        Uni<String> callPay() {
            return pay("x");
        }
    }

    /** {@code @Locked} on a class: it is for methods. */
    @Locked
    @ApplicationScoped
    static class LockedClass {
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }

    /** A wait that is no duration. */
    @ApplicationScoped
    static class MalformedWait {
        @Locked(waitTime = "soon")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }

    /** A negative wait. */
    @ApplicationScoped
    static class NegativeWait {
        @Locked(waitTime = "-1s")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }

    /** A zero lease. */
    @ApplicationScoped
    static class ZeroLease {
        @Locked(expireAfter = "0s")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }

    /** A minimum hold that is no duration. */
    @ApplicationScoped
    static class MalformedHoldAtLeast {
        @Locked(waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "soon")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }

    /** A negative minimum hold. */
    @ApplicationScoped
    static class NegativeHoldAtLeast {
        @Locked(waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "-1s")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }

    /** A minimum hold longer than the lease the annotation gives: the lease would free the lock first. */
    @ApplicationScoped
    static class HoldAtLeastLongerThanLease {
        @Locked(waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "2s", expireAfter = "1s")
        Uni<String> pay(String id) {
            return Uni.createFrom().item(id);
        }
    }
}
