package io.quarkiverse.lock.tck.faults;

import java.time.Duration;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;

/**
 * A worker's reentrant operation: a reentrant handle enters its hold again from inside its section, up to four levels
 * deep; now and then a nested acquisition is cancelled at a random moment (during its re-entry or its section).
 */
final class NestedOperations extends WorkerOperations {

    NestedOperations(FaultWorker worker, LoggedSections sections) {
        super(worker, sections);
    }

    String run(TrackedHandle handle) {
        int depth = 2 + random.nextInt(3);
        Duration[] work = new Duration[depth];
        long[] cancelAfter = new long[depth];
        for (int level = 0; level < depth; level++) {
            work[level] = Duration.ofMillis(random.nextInt(8));
            cancelAfter[level] = random.nextInt(5) == 0 ? 1 + random.nextInt(15) : -1;
        }
        Duration wait = worker.waitTime();
        Duration lease = worker.lease();
        return LoggedSections.await(sections.attempted(attempt -> handle.lock().acquireAndExecute(wait, lease,
                sections.section(handle, "-", attempt, lease.toMillis(), work[0],
                        nestedIn(handle, 1, depth, lease, work, cancelAfter, false))))
                .map(ignored -> "done"));
    }

    /**
     * @param underTimer whether an enclosing nested level has a timer that may cancel it, and with it this level: then
     *        this level's section may be cancelled while it runs too
     */
    private Function<String, Uni<Void>> nestedIn(TrackedHandle handle, int level, int depth, Duration lease,
            Duration[] work, long[] cancelAfter, boolean underTimer) {
        if (level >= depth) {
            return null;
        }
        boolean cancellable = underTimer || cancelAfter[level] > 0;
        return parent -> {
            Uni<Void> inner = sections.attempted(attempt -> handle.lock().acquireAndExecute(Duration.ZERO, lease,
                    sections.section(handle, parent, attempt, lease.toMillis(), work[level],
                            nestedIn(handle, level + 1, depth, lease, work, cancelAfter, cancellable),
                            cancellable)));
            if (cancelAfter[level] > 0) {
                inner = inner.ifNoItem().after(Duration.ofMillis(cancelAfter[level])).recoverWithItem((Void) null);
            }
            return inner.onFailure(failure -> !(failure instanceof HarnessFailure)).recoverWithNull();
        };
    }
}
