package io.quarkiverse.lock.docs;

import java.time.Duration;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.Locked;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;

/**
 * Scheduled jobs that every instance fires and one instance runs per period.
 */
@ApplicationScoped
public class ScheduledReports {

    @Inject
    LockRegistry locks;

    // tag::cron[]
    @Scheduled(cron = "0 0 2 * * ?") // 02:00 on every instance's clock
    @Locked(key = "nightly-report", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, // <1>
            holdAtLeast = "5m", // <2>
            expireAfter = "${reports.nightly.lease:30m}") // <3>
    void nightlyReport() {
        // runs once a night, on whichever instance fired first
    }
    // end::cron[]

    // tag::every[]
    @Scheduled(every = "1h") // counted from each instance's start
    @Locked(key = "hourly-cleanup", waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "55m", expireAfter = "55m")
    void hourlyCleanup() {
        // runs once an hour, whatever minute each instance started at
    }
    // end::every[]

    // tag::programmatic[]
    /**
     * @return completes when this instance purged, or skipped because another instance purged less than 5 minutes ago
     */
    public Uni<Void> purge() {
        return locks.obtain("purge")
                .withHoldAtLeast(Duration.ofMinutes(5))
                .acquireAndExecute(Duration.ZERO, Duration.ofMinutes(10), Uni.createFrom().voidItem())
                .onFailure(CannotAcquireLockException.class).recoverWithNull();
    }
    // end::programmatic[]
}
