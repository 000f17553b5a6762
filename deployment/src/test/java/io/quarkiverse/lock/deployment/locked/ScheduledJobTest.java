package io.quarkiverse.lock.deployment.locked;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.Locked;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkiverse.lock.tck.Overlap;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code @Locked} on {@code @Scheduled} methods: two triggers standing for two instances of one service fire together
 * on one key, and one runs while the other skips, so runs never overlap.
 */
class ScheduledJobTest {

    static final Overlap OVERLAP = new Overlap();
    static final AtomicInteger RUNS = new AtomicInteger();

    @RegisterExtension
    static final QuarkusUnitTest APP = LockTestApplication.inMemory(NightlyReport.class, Overlap.class);

    @Test
    void scheduledRunsOnOneKeyNeverOverlap() throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (RUNS.get() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(RUNS.get()).isGreaterThanOrEqualTo(3);
        assertThat(OVERLAP.max()).isEqualTo(1);
    }

    static void report() {
        OVERLAP.enter();
        try {
            RUNS.incrementAndGet();
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            OVERLAP.leave();
        }
    }

    @ApplicationScoped
    static class NightlyReport {

        /** Each trigger stands for one instance of the service: the two fire together. */
        @Scheduled(identity = "instance-a", every = "1s")
        @Scheduled(identity = "instance-b", every = "1s")
        @Locked(key = "nightly-report", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP)
        void run() {
            report();
        }
    }
}
