package io.quarkiverse.lock.tracing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.is;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.waiting.LocalLine;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * A {@code @Locked} REST call that waited for its lock shows, inside the request's trace, the section's span (a
 * child of the server span) enclosing the acquisition's span, with the wait, and the action's own span; for each
 * shape of method. A lock not acquired ends both spans with that outcome; a cancelled section's span ends with the
 * cancellation once its release is made. The key, which can hold user data, is on no span.
 */
class LockedMethodSpansTest {

    private static final Duration HELD_ELSEWHERE = Duration.ofMillis(300);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = TracedApplication.of(TracedJobs.class, TracedResource.class);

    @Inject
    InMemorySpanExporter exporter;

    @Inject
    LockRegistry locks;

    @Inject
    TracedJobs jobs;

    @Inject
    LocalLockStates lines;

    @BeforeEach
    void forgetEarlierSpans() {
        exporter.reset();
    }

    @Test
    void aUniCallThatWaitedShowsItsWaitAndTheSectionAroundItsAction() {
        heldElsewhereFor("uni-secret-7", HELD_ELSEWHERE);
        given().get("/traced/uni/{id}", "secret-7").then().statusCode(200).body(is("uni secret-7"));

        assertWaitedSection("uni-{id}", "uni action", "/traced/uni/");
    }

    @Test
    void aBlockingCallThatWaitedShowsItsWaitAndTheSectionAroundItsAction() {
        heldElsewhereFor("blocking-secret-7", HELD_ELSEWHERE);
        given().get("/traced/blocking/{id}", "secret-7").then().statusCode(200).body(is("blocking secret-7"));

        assertWaitedSection("blocking-{id}", "blocking action", "/traced/blocking/");
    }

    @Test
    void aMultiCallThatWaitedShowsItsWaitAndTheSectionAroundItsAction() {
        heldElsewhereFor("multi-secret-7", HELD_ELSEWHERE);
        given().get("/traced/multi/{id}", "secret-7").then().statusCode(200).body(is("multi secret-7"));

        assertWaitedSection("multi-{id}", "multi action", "/traced/multi/");
    }

    @Test
    void aLockNotAcquiredEndsBothSpansWithThatOutcome() {
        ReactiveDistributedLock holder = held("busy-secret-7");
        try {
            given().get("/traced/busy/{id}", "secret-7").then().statusCode(409);
        } finally {
            assertThat(holder.release().await().atMost(TIMEOUT)).isTrue();
        }

        SpanData server = serverSpan("/traced/busy/");
        SpanData section = Spans.named(exporter, "lock section busy-{id}");
        SpanData acquire = Spans.named(exporter, "lock acquire busy-{id}");
        Spans.assertChildOf(section, server);
        Spans.assertChildOf(acquire, section);
        assertThat(acquire.getAttributes().get(Spans.OUTCOME)).isEqualTo("not_acquired");
        assertThat(acquire.getAttributes().get(Spans.WAIT_REQUESTED)).isEqualTo(100L);
        assertThat(acquire.getAttributes().get(Spans.WAITED)).as("ms waited").isGreaterThanOrEqualTo(90L);
        assertThat(acquire.getAttributes().get(Spans.FENCING_TOKEN)).as("a token, without the lock").isNull();
        assertThat(section.getAttributes().get(Spans.OUTCOME)).isEqualTo("not_acquired");
        assertThat(exporter.getFinishedSpanItems()).as("spans of an action that must not run")
                .noneMatch(span -> span.getName().equals("busy action"));
        assertNoKeyOnLockSpans("secret-7");
    }

    @Test
    void aSectionCancelledWhileItsActionRunsEndsItsSpanOnceItsReleaseIsMade() throws InterruptedException {
        TracedJobs.endlessStarted = new CountDownLatch(1);
        Cancellable running = jobs.endless("running").subscribe().with(ignored -> {
        });
        assertThat(TracedJobs.endlessStarted.await(10, TimeUnit.SECONDS)).as("the action started").isTrue();
        running.cancel();

        SpanData section = Spans.named(exporter, "lock section endless-{id}");
        SpanData acquire = Spans.named(exporter, "lock acquire endless-{id}");
        SpanData action = Spans.named(exporter, "endless action");
        Spans.assertChildOf(acquire, section);
        Spans.assertChildOf(action, section);
        assertThat(acquire.getAttributes().get(Spans.OUTCOME)).isEqualTo("acquired");
        assertCancelled(section);
        assertThat(locks.obtain("endless-running").acquireOnce().await().atMost(TIMEOUT))
                .as("the lock is free once the cancelled section's span ended").isTrue();
        assertThat(locks.obtain("endless-running").release().await().atMost(TIMEOUT)).isFalse();
    }

    @Test
    void aSectionCancelledWhileItWaitsEndsBothSpansWithTheCancellation() throws InterruptedException {
        ReactiveDistributedLock holder = held("endless-waiting");
        try {
            Cancellable waiting = jobs.endless("waiting").subscribe().with(ignored -> {
            });
            Thread.sleep(100);
            waiting.cancel();

            SpanData section = Spans.named(exporter, "lock section endless-{id}");
            SpanData acquire = Spans.named(exporter, "lock acquire endless-{id}");
            Spans.assertChildOf(acquire, section);
            assertThat(acquire.getAttributes().get(Spans.OUTCOME)).isEqualTo("cancelled");
            assertThat(acquire.getAttributes().get(Spans.PLACE_IN_LINE)).isEqualTo(1L);
            assertCancelled(section);
            assertThat(exporter.getFinishedSpanItems()).as("spans of an action that never started")
                    .noneMatch(span -> span.getName().equals("endless action"));
        } finally {
            assertThat(holder.release().await().atMost(TIMEOUT)).isTrue();
        }
    }

    @Test
    void aPlainAcquisitionHasASpanOfItsOwnUnderTheCallersSpan() {
        ReactiveDistributedLock first = locks.obtain("plain-secret-7").withMetricsName("plain");
        ReactiveDistributedLock second = locks.obtain("plain-secret-7").withMetricsName("plain");
        assertThat(first.acquire(Duration.ZERO).await().atMost(TIMEOUT)).isTrue();
        assertThat(second.acquire(Duration.ofMillis(50)).await().atMost(TIMEOUT)).isFalse();
        assertThat(first.release().await().atMost(TIMEOUT)).isTrue();

        List<SpanData> acquisitions = Spans.waitFor(exporter, span -> span.getName().equals("lock acquire plain"), 2);
        assertThat(acquisitions).hasSize(2);
        SpanData got = acquisitions.stream().filter(span -> "acquired".equals(span.getAttributes().get(Spans.OUTCOME)))
                .findFirst().orElseThrow();
        SpanData refused = acquisitions.stream()
                .filter(span -> "not_acquired".equals(span.getAttributes().get(Spans.OUTCOME))).findFirst()
                .orElseThrow();
        assertThat(got.getAttributes().get(Spans.FENCING_TOKEN)).isPositive();
        assertThat(got.getAttributes().get(Spans.WAIT_REQUESTED)).isZero();
        assertThat(got.getAttributes().get(Spans.PLACE_IN_LINE)).as("a single attempt queues nowhere").isNull();
        assertThat(refused.getAttributes().get(Spans.WAIT_REQUESTED)).isEqualTo(50L);
        assertThat(refused.getAttributes().get(Spans.PLACE_IN_LINE)).isEqualTo(1L);
        assertThat(exporter.getFinishedSpanItems()).as("a plain acquisition has no section")
                .noneMatch(span -> span.getName().startsWith("lock section"));
        assertNoKeyOnLockSpans("secret-7");
    }

    @Test
    void anActionMadeBeforeItsSectionRunsInTheContextItWasMadeIn() {
        given().get("/traced/direct/{id}", "7").then().statusCode(200).body(is("direct 7"));

        SpanData server = serverSpan("/traced/direct/");
        SpanData section = Spans.named(exporter, "lock section direct");
        Spans.assertChildOf(section, server);
        Spans.assertChildOf(Spans.named(exporter, "lock acquire direct"), section);
        Spans.assertChildOf(Spans.named(exporter, "direct action"), server);
        assertThat(section.getAttributes().get(Spans.OUTCOME)).isEqualTo("completed");
    }

    private void assertWaitedSection(String template, String actionName, String path) {
        SpanData server = serverSpan(path);
        SpanData section = Spans.named(exporter, "lock section " + template);
        SpanData acquire = Spans.named(exporter, "lock acquire " + template);
        SpanData action = Spans.named(exporter, actionName);

        Spans.assertChildOf(section, server);
        Spans.assertChildOf(acquire, section);
        Spans.assertChildOf(action, section);
        Spans.assertWithin(section, server);
        Spans.assertWithin(acquire, section);
        Spans.assertWithin(action, section);
        assertThat(action.getStartEpochNanos()).as("the action starts once the lock is acquired")
                .isGreaterThanOrEqualTo(acquire.getEndEpochNanos());

        assertThat(acquire.getAttributes().get(Spans.OUTCOME)).isEqualTo("acquired");
        assertThat(acquire.getAttributes().get(Spans.WAITED)).as("ms waited").isGreaterThanOrEqualTo(
                HELD_ELSEWHERE.toMillis() - 20);
        assertThat(acquire.getAttributes().get(Spans.WAIT_REQUESTED)).as("the configured wait-timeout, in ms")
                .isEqualTo(10_000L);
        assertThat(acquire.getAttributes().get(Spans.FENCING_TOKEN)).isPositive();
        assertThat(acquire.getAttributes().get(Spans.PLACE_IN_LINE)).isEqualTo(1L);
        for (SpanData lockSpan : List.of(section, acquire)) {
            assertThat(lockSpan.getKind()).isEqualTo(SpanKind.INTERNAL);
            assertThat(lockSpan.getAttributes().get(Spans.NAME)).isEqualTo(template);
            assertThat(lockSpan.getAttributes().get(Spans.STORE)).isEqualTo("in-memory");
            assertThat(lockSpan.getAttributes().get(Spans.TYPE)).isEqualTo("single_entrant");
        }
        assertThat(section.getAttributes().get(Spans.OUTCOME)).isEqualTo("completed");
        assertNoKeyOnLockSpans("secret-7");
    }

    private SpanData serverSpan(String path) {
        List<SpanData> servers = Spans.waitFor(exporter,
                span -> span.getKind() == SpanKind.SERVER && span.getName().contains(path), 1);
        assertThat(servers).as("server spans of %s", path).hasSize(1);
        return servers.get(0);
    }

    private static void assertCancelled(SpanData section) {
        assertThat(section.getAttributes().get(Spans.OUTCOME)).isEqualTo("cancelled");
        assertThat(section.getEvents()).as("events of the cancelled section's span")
                .extracting(EventData::getAttributes)
                .anyMatch(attributes -> CancellationException.class.getName()
                        .equals(attributes.get(AttributeKey.stringKey("exception.type"))));
    }

    /** The key, which holds {@code secret}, is neither in a lock span's name nor in any of its attributes. */
    private void assertNoKeyOnLockSpans(String secret) {
        List<SpanData> lockSpans = exporter.getFinishedSpanItems().stream()
                .filter(span -> span.getName().startsWith("lock ")).toList();
        assertThat(lockSpans).isNotEmpty().allSatisfy(span -> {
            assertThat(span.getName()).doesNotContain(secret);
            assertThat(span.getAttributes().get(Spans.KEY)).isNull();
            assertThat(span.getAttributes().asMap().values()).noneMatch(value -> value.toString().contains(secret));
        });
    }

    private int waiting(String key) {
        LocalLine line = lines.get(key);
        return line == null ? 0 : line.waiting();
    }

    private ReactiveDistributedLock held(String key) {
        ReactiveDistributedLock holder = locks.obtain(key);
        assertThat(holder.acquireOnce().await().atMost(TIMEOUT)).as("held elsewhere").isTrue();
        return holder;
    }

    /** Holds the lock from another handle, and releases it once an acquisition waited for it that long. */
    private void heldElsewhereFor(String key, Duration hold) {
        ReactiveDistributedLock holder = held(key);
        Thread release = new Thread(() -> {
            try {
                long deadline = System.nanoTime() + TIMEOUT.toNanos();
                while (waiting(key) == 0 && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                Thread.sleep(hold.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            holder.release().await().atMost(TIMEOUT);
        }, "release-" + key);
        release.start();
    }
}
