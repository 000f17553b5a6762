package io.quarkiverse.lock.deployment.leadership;

import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.GROUP;
import static io.quarkiverse.lock.deployment.leadership.LeadershipTestApplication.eventually;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.leadership.Leading;
import io.quarkiverse.lock.leadership.NotLeaderException;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.AssertSubscriber;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;

/**
 * {@code @Leading} on each return type it supports, and the API ({@code whileLeading}): the work runs on the leader,
 * and when the term ends a {@code Uni} or {@code Multi} is cancelled, a {@code CompletionStage} fails and a blocking
 * method's thread is interrupted, each failing with {@link NotLeaderException} naming the cause. On an instance that
 * does not lead, a call fails, or skips when the annotation says so.
 */
class GuardedMethodsTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = LeadershipTestApplication.withGroup(Guarded.class)
            .overrideConfigKey("quarkus.lock.leadership.elsewhere.enabled", "false");

    @Inject
    Guarded guarded;

    @Inject
    Leadership leadership;

    @Test
    void theWorkOfEveryShapeIsCancelledWhenTheTermEnds() throws Exception {
        LeadershipGroup group = leadership.group(GROUP);
        eventually("elected", group::isLeader);
        long term = group.term().getAsLong();
        AtomicBoolean uniCancelled = new AtomicBoolean();
        AtomicBoolean multiCancelled = new AtomicBoolean();
        AtomicBoolean apiCancelled = new AtomicBoolean();
        UniAssertSubscriber<String> uni = guarded.endless(uniCancelled)
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        AssertSubscriber<Long> multi = guarded.ticks(multiCancelled)
                .subscribe().withSubscriber(AssertSubscriber.create(Long.MAX_VALUE));
        UniAssertSubscriber<Object> api = group.whileLeading(Uni.createFrom().nothing()
                .onCancellation().invoke(() -> apiCancelled.set(true)))
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        CompletableFuture<String> stage = guarded.endlessStage().toCompletableFuture();
        CountDownLatch sleeping = new CountDownLatch(1);
        CompletableFuture<String> blocking = CompletableFuture.supplyAsync(() -> guarded.sleep(sleeping));
        assertThat(sleeping.await(5, TimeUnit.SECONDS)).isTrue();
        eventually("ticks under the term", () -> multi.getItems().size() >= 2);
        assertThat(guarded.term().await().atMost(Duration.ofSeconds(5))).isEqualTo(term);

        group.yieldLeadership().await().atMost(Duration.ofSeconds(5));

        assertThat(uniCancelled).isTrue();
        assertThat(multiCancelled).isTrue();
        assertThat(apiCancelled).isTrue();
        assertEndedByYield(uni.awaitFailure().getFailure(), term, "Guarded#endless");
        assertEndedByYield(multi.awaitFailure().getFailure(), term, "Guarded#ticks");
        assertEndedByYield(api.awaitFailure().getFailure(), term, "the work");
        assertThatThrownBy(() -> stage.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().satisfies(failure -> assertEndedByYield(failure, term, "Guarded#endlessStage"));
        assertThatThrownBy(() -> blocking.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().satisfies(failure -> {
                    assertEndedByYield(failure, term, "Guarded#sleep");
                    assertThat(failure.getSuppressed()).as("what the method threw once interrupted").singleElement()
                            .satisfies(thrown -> assertThat(thrown).hasCauseInstanceOf(InterruptedException.class));
                });
    }

    @Test
    void aCallOnAnInstanceThatDoesNotLeadFailsOrSkips() {
        assertThatThrownBy(() -> guarded.elsewhere()).isInstanceOf(NotLeaderException.class)
                .hasMessageContaining("Guarded#elsewhere").hasMessageContaining("'elsewhere'");
        assertThat(guarded.elsewhereSkipped()).isNull();
        assertThat(guarded.elsewhereSkippedUni().await().atMost(Duration.ofSeconds(5))).isNull();
        assertThat(guarded.elsewhereSkippedMulti().collect().asList().await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThatThrownBy(() -> guarded.elsewhereUni().await().atMost(Duration.ofSeconds(5)))
                .isInstanceOf(NotLeaderException.class);
        assertThat(guarded.calls).as("a body ran").isFalse();
        assertThatThrownBy(() -> leadership.group("elsewhere").join()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("quarkus.lock.leadership.\"elsewhere\".enabled=false");
    }

    /**
     * The body of a {@code Uni} method runs at subscription, and may outlive the term: here the leader yields while it
     * runs. Its result is not the leader's: the call fails with {@link NotLeaderException}.
     */
    @Test
    void aUniMethodWhoseBodyOutlivesItsTermFailsWithNotLeader() throws Exception {
        LeadershipGroup group = leadership.group(GROUP);
        eventually("elected", group::isLeader);
        long term = group.term().getAsLong();
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Boolean> yielded = CompletableFuture.supplyAsync(() -> {
            try {
                assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return group.yieldLeadership().await().atMost(Duration.ofSeconds(5));
        });

        UniAssertSubscriber<String> outcome = guarded.report(started).subscribe()
                .withSubscriber(UniAssertSubscriber.create());

        assertThat(yielded.get(5, TimeUnit.SECONDS)).as("the leader yielded while the body ran").isTrue();
        assertThat(outcome.awaitFailure(Duration.ofSeconds(5)).getFailure())
                .as("the outcome of the call (item: %s)", outcome.getItem())
                .satisfies(failure -> assertEndedByYield(failure, term, "Guarded#report"));
    }

    private static void assertEndedByYield(Throwable failure, long term, String what) {
        assertThat(failure).isInstanceOf(NotLeaderException.class).hasMessageContaining(what);
        NotLeaderException ended = (NotLeaderException) failure;
        assertThat(ended.getTerm()).isEqualTo(term);
        assertThat(ended.getEndedBy()).contains(LeadershipEnded.Cause.YIELDED);
    }

    @ApplicationScoped
    static class Guarded {

        @Inject
        Leadership leadership;

        final AtomicBoolean calls = new AtomicBoolean();

        @Leading(GROUP)
        Uni<String> endless(AtomicBoolean cancelled) {
            return Uni.createFrom().<String> nothing().onCancellation().invoke(() -> cancelled.set(true));
        }

        @Leading(GROUP)
        Multi<Long> ticks(AtomicBoolean cancelled) {
            return Multi.createFrom().ticks().every(Duration.ofMillis(10)).onCancellation()
                    .invoke(() -> cancelled.set(true));
        }

        @Leading(GROUP)
        CompletionStage<String> endlessStage() {
            return new CompletableFuture<>();
        }

        @Leading(GROUP)
        String sleep(CountDownLatch sleeping) {
            sleeping.countDown();
            try {
                Thread.sleep(60_000);
                return "slept";
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Builds a report (blocking work, then its result as a Uni), only on the leader. */
        @Leading(GROUP)
        Uni<String> report(CountDownLatch started) {
            started.countDown();
            eventually("the term over", () -> !leadership.group(GROUP).isLeader());
            return Uni.createFrom().item("report built while not leading");
        }

        @Leading(GROUP)
        Uni<Long> term() {
            return Uni.createFrom().item(() -> leadership.group(GROUP).term().getAsLong());
        }

        @Leading("elsewhere")
        String elsewhere() {
            calls.set(true);
            return "ran";
        }

        @Leading(value = "elsewhere", whenNotLeader = Leading.WhenNotLeader.SKIP)
        String elsewhereSkipped() {
            calls.set(true);
            return "ran";
        }

        @Leading(value = "elsewhere", whenNotLeader = Leading.WhenNotLeader.SKIP)
        Uni<String> elsewhereSkippedUni() {
            calls.set(true);
            return Uni.createFrom().item("ran");
        }

        @Leading(value = "elsewhere", whenNotLeader = Leading.WhenNotLeader.SKIP)
        Multi<String> elsewhereSkippedMulti() {
            calls.set(true);
            return Multi.createFrom().item("ran");
        }

        @Leading("elsewhere")
        Uni<String> elsewhereUni() {
            calls.set(true);
            return Uni.createFrom().item("ran");
        }
    }
}
