package io.quarkiverse.lock.reliability;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.lock.Locked;
import io.quarkus.scheduler.Scheduled;

/**
 * The job of the scheduled-job test, in two variants on keys of their own: with a minimum hold, as the guide
 * recommends for a job that should run once per period across instances, and without one. Both are off unless the
 * test turns them on ({@code reliability.with-hold-at-least.every}, {@code reliability.without-hold-at-least.every}).
 * Each run prints {@code RAN <variant> <epochMillis>} and takes 50 ms. {@link LateClock} delays the firings of an
 * instance whose clock the test sets behind.
 */
@ApplicationScoped
public class ScheduledReport {

    @Scheduled(identity = "with-hold-at-least", every = "${reliability.with-hold-at-least.every:off}")
    @LateClock
    @Locked(key = "report-with-hold-at-least", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "500ms", expireAfter = "30s")
    void withHoldAtLeast() throws InterruptedException {
        run("with");
    }

    @Scheduled(identity = "without-hold-at-least", every = "${reliability.without-hold-at-least.every:off}")
    @LateClock
    @Locked(key = "report-without-hold-at-least", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, expireAfter = "30s")
    void withoutHoldAtLeast() throws InterruptedException {
        run("without");
    }

    private static void run(String variant) throws InterruptedException {
        System.out.println("RAN " + variant + " " + System.currentTimeMillis());
        Thread.sleep(50);
    }
}
