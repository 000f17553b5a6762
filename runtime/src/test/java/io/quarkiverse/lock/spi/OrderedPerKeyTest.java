package io.quarkiverse.lock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * Operations on one key start in subscription order, each after the one before it really ended, even when its caller
 * gave up (but one given up on before it was sent, if asked); operations on other keys do not wait.
 */
class OrderedPerKeyTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final OrderedPerKey ordered = new OrderedPerKey();
    private final List<String> started = new CopyOnWriteArrayList<>();

    @Test
    void aCancelledOperationHoldsItsKeyUntilItEnds() {
        CompletableFuture<String> attempt = new CompletableFuture<>();
        Cancellable cancelled = ordered.run("k", () -> {
            started.add("attempt");
            return Uni.createFrom().completionStage(attempt);
        }).subscribe().with(ignored -> {
        });
        UniAssertSubscriber<String> takeBack = ordered.run("k", () -> {
            started.add("take-back");
            return Uni.createFrom().item("taken back");
        }).subscribe().withSubscriber(UniAssertSubscriber.create());

        cancelled.cancel();
        assertThat(started).as("the take-back must not overtake the attempt still running at the server")
                .containsExactly("attempt");

        attempt.complete("granted");
        takeBack.awaitItem(TIMEOUT).assertItem("taken back");
        assertThat(started).containsExactly("attempt", "take-back");
        assertThat(ordered.busyKeys()).as("keys still marked busy").isZero();
    }

    @Test
    void otherKeysDoNotWait() {
        CompletableFuture<String> slow = new CompletableFuture<>();
        ordered.run("slow", () -> Uni.createFrom().completionStage(slow)).subscribe().with(ignored -> {
        });

        String other = ordered.run("other", () -> Uni.createFrom().item("done")).await().atMost(TIMEOUT);

        assertThat(other).isEqualTo("done");
        assertThat(ordered.busyKeys()).as("only the slow key is busy").isEqualTo(1);
        slow.complete("late");
        assertThat(ordered.busyKeys()).isZero();
    }

    @Test
    void anOperationThatFailsToStartFreesItsKey() {
        UniAssertSubscriber<Object> failed = ordered.run("k", () -> {
            throw new IllegalStateException("no connection");
        }).subscribe().withSubscriber(UniAssertSubscriber.create());

        failed.awaitFailure(TIMEOUT).assertFailedWith(IllegalStateException.class, "no connection");
        assertThat(ordered.run("k", () -> Uni.createFrom().item("next")).await().atMost(TIMEOUT)).isEqualTo("next");
        assertThat(ordered.busyKeys()).isZero();
    }

    @Test
    void anOperationGivenUpOnBeforeItWasSentIsNeverSent() {
        CompletableFuture<String> slow = new CompletableFuture<>();
        ordered.run("k", () -> {
            started.add("slow");
            return Uni.createFrom().completionStage(slow);
        }).subscribe().with(ignored -> {
        });
        UniAssertSubscriber<Boolean> forceRelease = ordered.runUnlessGivenUp("k", () -> {
            started.add("force release");
            return Uni.createFrom().item(Boolean.TRUE);
        }).subscribe().withSubscriber(UniAssertSubscriber.create());
        UniAssertSubscriber<String> next = ordered.run("k", () -> {
            started.add("next");
            return Uni.createFrom().item("next");
        }).subscribe().withSubscriber(UniAssertSubscriber.create());

        forceRelease.cancel();
        slow.complete("late");

        next.awaitItem(TIMEOUT).assertItem("next");
        assertThat(started).as("a release whoever holds the lock, sent after its caller gave up, frees a later holder")
                .containsExactly("slow", "next");
        assertThat(ordered.busyKeys()).as("keys still marked busy").isZero();
    }

    @Test
    void anOperationGivenUpOnOnceSentRunsToItsEnd() {
        CompletableFuture<Boolean> release = new CompletableFuture<>();
        Cancellable cancelled = ordered.runUnlessGivenUp("k", () -> {
            started.add("force release");
            return Uni.createFrom().completionStage(release);
        }).subscribe().with(ignored -> {
        });
        UniAssertSubscriber<String> next = ordered.run("k", () -> {
            started.add("next");
            return Uni.createFrom().item("next");
        }).subscribe().withSubscriber(UniAssertSubscriber.create());

        cancelled.cancel();
        assertThat(started).as("the next operation must wait for the one sent").containsExactly("force release");

        release.complete(Boolean.TRUE);
        next.awaitItem(TIMEOUT).assertItem("next");
        assertThat(started).containsExactly("force release", "next");
    }
}
