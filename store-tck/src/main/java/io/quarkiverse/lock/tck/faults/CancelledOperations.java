package io.quarkiverse.lock.tck.faults;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * A worker's operations that give up on an acquisition at a random moment: a cancelled {@code acquireAndExecute}, a
 * cancelled {@code acquire}, and an overriding take-over that is cancelled a third of the time.
 */
final class CancelledOperations extends WorkerOperations {

    /** How long an overriding request may take effect after its caller stopped waiting for it. */
    static final long OVERRIDE_MARGIN_MICROS = 3_000_000;

    CancelledOperations(FaultWorker worker, LoggedSections sections) {
        super(worker, sections);
    }

    String cancelExecute(TrackedHandle handle) {
        Duration wait = worker.waitTime();
        Duration lease = worker.lease();
        Duration work = worker.work();
        long cancelAfter = random.nextInt((int) wait.toMillis() + 60);
        Uni<String> operation = sections.attempted(attempt -> handle.lock().acquireAndExecute(wait, lease,
                sections.section(handle, "-", attempt, lease.toMillis(), work, null)))
                .map(ignored -> "done before the cancellation");
        return cancelAfter(operation, cancelAfter);
    }

    /**
     * Cancels a pending acquisition; if it reported the lock acquired first, the worker runs its section and releases,
     * out of the cancellation's reach.
     */
    String cancelAcquire(TrackedHandle handle) {
        Duration wait = worker.waitTime();
        Duration lease = worker.lease();
        Duration work = worker.work();
        long cancelAfter = random.nextInt((int) wait.toMillis() + 60);
        long attempt = sections.now();
        CompletableFuture<Boolean> acquired = new CompletableFuture<>();
        Cancellable subscription = subscribeReleasingLateGrants(handle, handle.lock().acquire(wait, lease), acquired);
        LoggedSections.sleep(cancelAfter);
        subscription.cancel();
        if (acquired.cancel(false)) {
            worker.retire(handle);
            return "cancelled";
        }
        try {
            return acquired.join()
                    ? LoggedSections.await(worker.sectionThenRelease(handle, attempt, lease.toMillis(), work))
                    : "not acquired";
        } catch (CompletionException e) {
            return OperationOutcomes.classify(e);
        }
    }

    /**
     * Takes the lock whoever holds it, runs a section, and frees it whoever holds it; a third of the time the
     * take-over is cancelled. Its window spans from the request to the release's answer (plus a margin for requests
     * whose answer never came).
     */
    String overriding(TrackedHandle handle) {
        Duration lease = Duration.ofMillis(500 + random.nextInt(1000));
        Duration work = Duration.ofMillis(random.nextInt(10));
        boolean cancel = random.nextInt(3) == 0;
        long cancelAfter = random.nextInt(20);
        long from = sections.now();
        CompletableFuture<Boolean> acquired = new CompletableFuture<>();
        Cancellable subscription = subscribeReleasingLateGrants(handle, handle.lock().acquire(Duration.ZERO, lease),
                acquired);
        String outcome;
        boolean answered = true;
        long token = -1;
        if (cancel) {
            LoggedSections.sleep(cancelAfter);
            subscription.cancel();
        }
        if (cancel && acquired.cancel(false)) {
            outcome = "cancelled";
            answered = false;
        } else {
            try {
                if (acquired.get(LoggedSections.OPERATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                    token = handle.lock().fencingToken().orElse(-1);
                    outcome = LoggedSections.await(worker.sectionThenRelease(handle, from, lease.toMillis(), work));
                    answered = "released".equals(outcome) || "release answered false".equals(outcome);
                } else {
                    outcome = "not acquired";
                }
            } catch (Exception e) {
                outcome = OperationOutcomes.classify(e instanceof ExecutionException ? e.getCause() : e);
                answered = false;
            }
        }
        sections.overriding(new OverrideWindow(handle.key(), handle.id(), from,
                sections.now() + (answered ? 0 : OVERRIDE_MARGIN_MICROS), token, outcome));
        return outcome;
    }

    /**
     * Subscribes to an acquisition that may be cancelled: a grant delivered after the worker gave up on it (the
     * cancellation raced the delivery) is released at once, as a careful caller would, since the handle holds it.
     */
    private Cancellable subscribeReleasingLateGrants(TrackedHandle handle, Uni<Boolean> acquisition,
            CompletableFuture<Boolean> acquired) {
        String operation = worker.operationName();
        return acquisition.subscribe().with(granted -> {
            if (!acquired.complete(granted) && granted) {
                worker.count(operation, "granted as it was cancelled, released");
                handle.lock().release().subscribe().with(released -> {
                }, failure -> worker.count(operation, "late grant's release: " + OperationOutcomes.classify(failure)));
            }
        }, acquired::completeExceptionally);
    }

    private static String cancelAfter(Uni<String> operation, long millis) {
        CompletableFuture<String> result = new CompletableFuture<>();
        Cancellable subscription = operation.subscribe().with(result::complete,
                failure -> result.complete(OperationOutcomes.classify(failure)));
        LoggedSections.sleep(millis);
        if (!result.isDone()) {
            subscription.cancel();
            result.complete("cancelled");
        }
        return result.join();
    }
}
