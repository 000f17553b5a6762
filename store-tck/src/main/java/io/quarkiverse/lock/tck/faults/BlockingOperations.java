package io.quarkiverse.lock.tck.faults;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import io.quarkiverse.lock.DistributedLock;

/**
 * A worker's blocking operation: an acquisition (or an execution) through the blocking view, on a thread of its own
 * that is interrupted at a random moment more often than not.
 */
final class BlockingOperations extends WorkerOperations {

    BlockingOperations(FaultWorker worker, LoggedSections sections) {
        super(worker, sections);
    }

    String run(TrackedHandle handle) {
        Duration wait = worker.waitTime();
        Duration lease = worker.lease();
        Duration work = worker.work();
        boolean execute = random.nextBoolean();
        boolean interrupt = random.nextInt(10) < 6;
        long interruptAfter = random.nextInt((int) wait.toMillis() + 100);
        AtomicReference<String> outcome = new AtomicReference<>("hung");
        long attempt = sections.now();
        Thread thread = new Thread(() -> outcome.set(blockingOperation(handle, attempt, wait, lease, work, execute)),
                "fault-blocking-" + handle.id());
        thread.setDaemon(true);
        thread.start();
        try {
            if (interrupt) {
                thread.join(interruptAfter);
                thread.interrupt();
            }
            thread.join(LoggedSections.OPERATION_TIMEOUT.toMillis());
            if (thread.isAlive()) {
                thread.interrupt();
                // the thread may still acquire and release on the handle: never let it touch a later operation's hold
                worker.retire(handle);
                return "hung";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "worker interrupted";
        }
        return (interrupt ? "(interrupt sent) " : "") + outcome.get();
    }

    /**
     * Runs on its own thread, which may be interrupted at any moment (so the request time is taken before, on the
     * worker's thread).
     */
    private String blockingOperation(TrackedHandle handle, long attempt, Duration wait, Duration lease, Duration work,
            boolean execute) {
        RecordedLock recorded = handle.lock();
        DistributedLock lock = recorded.toBlocking();
        OperationHistory.Pending acquisition = recorded.invokedAt(LockOperation.Kind.ACQUIRE, lease.toMillis(), attempt);
        if (execute) {
            RecordedLock.Execution execution = recorded.execution(acquisition);
            try {
                lock.acquireAndExecute(wait, lease, () -> {
                    execution.actionStarted();
                    try {
                        LoggedSections.awaitSection(sections.section(handle, "-", attempt, lease.toMillis(), work,
                                null));
                    } finally {
                        execution.release = recorded.releaseInvokedNow();
                    }
                    return null;
                });
                execution.ended(LockOperation.Outcome.OK, LockOperation.Outcome.OK);
                return "done";
            } catch (RuntimeException e) {
                execution.ended(RecordedLock.acquisitionOutcome(e), RecordedLock.releaseOutcome(e));
                return OperationOutcomes.classify(e);
            }
        }
        try {
            boolean acquired;
            try {
                acquired = lock.acquire(wait, lease);
            } catch (RuntimeException e) {
                recorded.completed(acquisition, RecordedLock.acquisitionOutcome(e));
                throw e;
            }
            recorded.completed(acquisition, acquired ? LockOperation.Outcome.OK : LockOperation.Outcome.FAIL);
            if (!acquired) {
                return "not acquired";
            }
            try {
                LoggedSections.awaitSection(sections.section(handle, "-", attempt, lease.toMillis(), work, null));
            } finally {
                boolean interrupted = Thread.interrupted();
                release(recorded, lock);
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            return "released";
        } catch (RuntimeException e) {
            return OperationOutcomes.classify(e);
        }
    }

    private static void release(RecordedLock recorded, DistributedLock lock) {
        OperationHistory.Pending release = recorded.releaseInvokedNow();
        try {
            recorded.completed(release, lock.release() ? LockOperation.Outcome.OK : LockOperation.Outcome.FAIL);
        } catch (RuntimeException e) {
            recorded.completed(release, RecordedLock.releaseOutcome(e));
            throw e;
        }
    }
}
