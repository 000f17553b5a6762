package io.quarkiverse.lock.deployment.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The lock meters after a known sequence of acquisitions: counts, wait and hold timers, expired leases and renewals,
 * tagged by the handle's name or the {@code @Locked} key template, never by the raw key.
 */
class LockMetricsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory(Jobs.class)
            .overrideConfigKey("quarkus.log.category.\"io.quarkiverse.lock\".level", "DEBUG")
            .setLogRecordPredicate(record -> record.getLoggerName().startsWith("io.quarkiverse.lock"))
            .assertLogRecords(records -> assertThat(records)
                    .filteredOn(record -> record.getLevel().intValue() == Level.FINE.intValue()
                            && record.getMessage().startsWith("Skipped @Locked method")
                            && Arrays.asList(record.getParameters()).contains("report-monday"))
                    .as("each skipped call is logged at debug level with its key").hasSize(3));

    /** A bean whose method is locked per job id. */
    @ApplicationScoped
    static class Jobs {

        @Locked(key = "job-{id}", waitTime = "0s")
        Uni<String> run(String id) {
            return Uni.createFrom().item("ran " + id);
        }

        @Locked(key = "report-{day}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP)
        Uni<String> report(String day) {
            return Uni.createFrom().item("report of " + day);
        }

        @Locked(key = "report-{day}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP)
        Multi<String> reportLines(String day) {
            return Multi.createFrom().items("line 1 of " + day, "line 2 of " + day);
        }

        @Locked(key = "report-{day}", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP)
        String reportNow(String day) {
            return "report of " + day;
        }
    }

    @Inject
    LockRegistry locks;

    @Inject
    Jobs jobs;

    @Inject
    MeterRegistry meters;

    private final SimpleMeterRegistry recorded = new SimpleMeterRegistry();

    @BeforeEach
    void record() {
        ((CompositeMeterRegistry) meters).add(recorded);
    }

    @Test
    void aKnownSequenceOfAcquisitionsShowsInTheMeters() throws InterruptedException {
        ReactiveDistributedLock holder = locks.obtain("order-1").withMetricsName("orders");
        ReactiveDistributedLock contender = locks.obtain("order-1").withMetricsName("orders");
        assertThat(await(holder.acquireOnce())).isTrue();
        assertThat(await(contender.acquireOnce())).isFalse();
        assertThat(await(contender.acquire(Duration.ofMillis(100)))).isFalse();
        assertThat(await(holder.release())).isTrue();

        ReactiveDistributedLock shortLease = locks.obtain("order-2").withMetricsName("orders");
        assertThat(await(shortLease.acquire(Duration.ZERO, Duration.ofMillis(50)))).isTrue();
        Thread.sleep(100);
        assertThatThrownBy(() -> await(shortLease.release())).isInstanceOf(LockExpiredException.class);

        ReactiveDistributedLock renewing = locks.obtain("report").withMetricsName("reports").withLeaseRenewal(true);
        await(renewing.acquireAndExecute(Duration.ZERO, Duration.ofMillis(150),
                Uni.createFrom().item(1).onItem().delayIt().by(Duration.ofMillis(400))));

        assertThat(await(jobs.run("7"))).isEqualTo("ran 7");
        assertThat(await(jobs.run("8"))).isEqualTo("ran 8");
        assertThat(await(locks.obtain("anonymous").acquireOnce())).isTrue();

        assertThat(count("quarkus.lock.acquire.attempts", "orders")).isEqualTo(4);
        assertThat(count("quarkus.lock.acquired", "orders")).isEqualTo(2);
        assertThat(count("quarkus.lock.not.acquired", "orders")).isEqualTo(2);
        assertThat(recorded.get("quarkus.lock.wait").tag("lock", "orders").tag("result", "acquired").timer().count())
                .isEqualTo(2);
        assertThat(recorded.get("quarkus.lock.wait").tag("lock", "orders").tag("result", "not_acquired").timer()
                .totalTime(TimeUnit.MILLISECONDS)).as("one of them waited 100 ms").isGreaterThanOrEqualTo(100);
        assertThat(recorded.get("quarkus.lock.hold").tag("lock", "orders").timer().count())
                .as("one released, one expired").isEqualTo(2);
        assertThat(count("quarkus.lock.lease.expired", "orders")).isEqualTo(1);
        assertThat(count("quarkus.lock.lease.renewals", "reports")).isGreaterThanOrEqualTo(2);
        assertThat(count("quarkus.lock.acquired", "job-{id}")).as("tagged by the key template").isEqualTo(2);
        assertThat(count("quarkus.lock.acquired", "unnamed")).isEqualTo(1);
        assertThat(recorded.find("quarkus.lock.acquired").tag("lock", "job-7").counter())
                .as("never by the raw key").isNull();
        assertThat(recorded.get("quarkus.lock.acquired").tag("lock", "orders").counter().getId().getTag("store"))
                .isEqualTo("in-memory");
    }

    @Test
    void aSkippedCallIsCountedWhateverItsReturnTypeAndARunIsNot() {
        ReactiveDistributedLock otherInstance = locks.obtain("report-monday");
        assertThat(await(otherInstance.acquireOnce())).isTrue();

        assertThat(await(jobs.report("monday"))).isNull();
        assertThat(jobs.reportLines("monday").collect().asList().await().atMost(TIMEOUT)).isEmpty();
        assertThat(jobs.reportNow("monday")).isNull();

        assertThat(skippedBusy("report-{day}")).as("tagged by the key template").isEqualTo(3);
        assertThat(await(otherInstance.release())).isTrue();
        assertThat(await(jobs.report("monday"))).isEqualTo("report of monday");
        assertThat(skippedBusy("report-{day}")).isEqualTo(3);
        assertThat(count("quarkus.lock.not.acquired", "report-{day}")).isEqualTo(3);
    }

    private double skippedBusy(String lock) {
        return recorded.get("quarkus.lock.skipped").tag("lock", lock).tag("reason", "busy").counter().count();
    }

    private double count(String meter, String lock) {
        return recorded.get(meter).tag("lock", lock).counter().count();
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }
}
