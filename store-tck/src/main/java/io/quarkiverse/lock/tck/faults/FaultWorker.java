package io.quarkiverse.lock.tck.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Uni;

/**
 * One worker of a fault run: a thread running random operations one after the other on a few keys, through handles of
 * its instance's registry (kept and used again half of the time), until the run has done its operations.
 * <p>
 * A section is logged only inside an operation that reported the lock acquired; what a worker acquires with
 * {@code acquire} it always releases (cancellation and interrupts hit only the acquisition, or an
 * {@code acquireAndExecute} whose release is the handle's job). The operations that cancel, interrupt or nest live in
 * {@link CancelledOperations}, {@link BlockingOperations} and {@link NestedOperations}.
 */
final class FaultWorker implements Runnable {

    private final RandomOperations run;
    private final LoggedSections sections;
    private final int instance;
    private final LockRegistry registry;
    private final Random random;
    private final Map<String, TrackedHandle> kept = new HashMap<>();
    private final CancelledOperations cancelled;
    private final BlockingOperations blocking;
    private final NestedOperations nested;
    private FaultOperation current;
    private TrackedHandle used;

    FaultWorker(RandomOperations run, int instance, LockRegistry registry, Random random) {
        this.run = run;
        this.sections = run.sections();
        this.instance = instance;
        this.registry = registry;
        this.random = random;
        this.cancelled = new CancelledOperations(this, sections);
        this.blocking = new BlockingOperations(this, sections);
        this.nested = new NestedOperations(this, sections);
    }

    @Override
    public void run() {
        while (run.nextOperation()) {
            FaultOperation operation = run.pick(random);
            String key = run.pickKey(random);
            String outcome;
            try {
                outcome = run(operation, key);
            } catch (RuntimeException e) {
                outcome = OperationOutcomes.classify(e);
            }
            run.outcomeCounts().count(operation.name(), outcome);
            if (used != null) {
                run.lastOutcome(used.id(), operation.name() + ": " + outcome);
                used = null;
            }
        }
    }

    private String run(FaultOperation operation, String key) {
        current = operation;
        switch (operation) {
            case EXECUTE_WAITING:
                return execute(handle(key, singleOrReentrant()), waitTime(), lease());
            case EXECUTE_ONE_TRY:
                return execute(handle(key, singleOrReentrant()), Duration.ZERO, lease());
            case ACQUIRE_RELEASE:
                return acquireAndRelease(handle(key, singleOrReentrant()), waitTime(), lease());
            case ACQUIRE_ONCE:
                return acquireOnceOrForever(handle(key, LockType.SINGLE_ENTRANT), false);
            case ACQUIRE_FOREVER:
                return acquireOnceOrForever(handle(key, LockType.SINGLE_ENTRANT), true);
            case CANCEL_EXECUTE:
                return cancelled.cancelExecute(handle(key, singleOrReentrant()));
            case CANCEL_ACQUIRE:
                return cancelled.cancelAcquire(handle(key, singleOrReentrant()));
            case BLOCKING_INTERRUPTED:
                return blocking.run(handle(key, singleOrReentrant()));
            case REENTRANT_NESTED:
                return nested.run(handle(key, LockType.REENTRANT));
            case OVERRIDING:
                return cancelled.overriding(newHandle(key, LockType.OVERRIDING));
            case CONCURRENT_ON_ONE_HANDLE:
                return concurrent(handle(key, singleOrReentrant()));
            default:
                throw new IllegalStateException(operation.name());
        }
    }

    /**
     * @return the worker's randomness, for the operations' draws (on the worker's thread only)
     */
    Random random() {
        return random;
    }

    /**
     * @return the name of the operation running
     */
    String operationName() {
        return current.name();
    }

    /**
     * @param operation the operation that saw it
     * @param outcome an outcome to count beside the operation's own
     */
    void count(String operation, String outcome) {
        run.outcomeCounts().count(operation, outcome);
    }

    private LockType singleOrReentrant() {
        return random.nextInt(4) == 0 ? LockType.REENTRANT : LockType.SINGLE_ENTRANT;
    }

    /** Half of the time the handle this worker used last for that key and type, else a new one. */
    private TrackedHandle handle(String key, LockType type) {
        String slot = key + "/" + type;
        TrackedHandle handle = kept.get(slot);
        if (handle == null || random.nextBoolean()) {
            handle = newHandle(key, type);
            kept.put(slot, handle);
        }
        used = handle.during(current.name());
        return used;
    }

    private TrackedHandle newHandle(String key, LockType type) {
        String id = run.nextHandleId(instance);
        ReactiveDistributedLock lock = registry.obtain(key, type).withLeaseRenewal(random.nextBoolean());
        TrackedHandle handle = new TrackedHandle(id, instance, key, type, run.recorded(lock, id, type, current.name()),
                current.name());
        run.track(handle);
        used = handle;
        return handle;
    }

    /**
     * Never uses the handle again: its cancelled acquisition may still deliver a grant, which the worker releases,
     * and that release must not hit a later operation's hold.
     */
    void retire(TrackedHandle handle) {
        kept.computeIfPresent(handle.key() + "/" + handle.type(),
                (slot, existing) -> existing.id().equals(handle.id()) ? null : existing);
    }

    /**
     * @return a wait of up to a second
     */
    Duration waitTime() {
        return Duration.ofMillis(random.nextInt(1000));
    }

    /**
     * @return a lease of one to three seconds
     */
    Duration lease() {
        return Duration.ofMillis(1000 + random.nextInt(2000));
    }

    /** Mostly short, sometimes long; always far shorter than the shortest lease. */
    Duration work() {
        int draw = random.nextInt(100);
        if (draw < 80) {
            return Duration.ofMillis(random.nextInt(10));
        }
        if (draw < 98) {
            return Duration.ofMillis(10 + random.nextInt(40));
        }
        return Duration.ofMillis(100 + random.nextInt(200));
    }

    private String execute(TrackedHandle handle, Duration wait, Duration lease) {
        Duration work = work();
        return LoggedSections.await(sections.attempted(attempt -> handle.lock().acquireAndExecute(wait, lease,
                sections.section(handle, "-", attempt, lease.toMillis(), work, null)))
                .map(ignored -> "done"));
    }

    private String acquireAndRelease(TrackedHandle handle, Duration wait, Duration lease) {
        Duration work = work();
        return LoggedSections.await(sections.attempted(attempt -> handle.lock().acquire(wait, lease)
                .flatMap(acquired -> acquired
                        ? sectionThenRelease(handle, attempt, lease.toMillis(), work)
                        : Uni.createFrom().item("not acquired"))));
    }

    private String acquireOnceOrForever(TrackedHandle handle, boolean forever) {
        Duration work = forever ? Duration.ofMillis(random.nextInt(10)) : work();
        long lease = forever ? 0 : run.defaultLeaseMillis();
        return LoggedSections.await(sections.attempted(attempt -> (forever ? handle.lock().acquireForever()
                : handle.lock().acquireOnce())
                .flatMap(acquired -> acquired ? sectionThenRelease(handle, attempt, lease, work)
                        : Uni.createFrom().item("not acquired"))));
    }

    /** The section, then the release whatever became of the section. */
    Uni<String> sectionThenRelease(TrackedHandle handle, long attempt, long leaseMillis, Duration work) {
        AtomicReference<Throwable> sectionFailure = new AtomicReference<>();
        return sections.section(handle, "-", attempt, leaseMillis, work, null)
                .onFailure().invoke(sectionFailure::set)
                .onFailure().recoverWithNull()
                .flatMap(ignored -> handle.lock().release())
                .map(released -> {
                    if (sectionFailure.get() != null) {
                        throw new HarnessFailure(sectionFailure.get());
                    }
                    return released ? "released" : "release answered false";
                });
    }

    /** Two or three acquisitions on one handle at once. */
    private String concurrent(TrackedHandle handle) {
        int count = 2 + random.nextInt(2);
        List<Uni<String>> operations = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Duration wait = waitTime();
            Duration lease = lease();
            Duration work = work();
            operations.add(sections.attempted(attempt -> handle.lock().acquireAndExecute(wait, lease,
                    sections.section(handle, "-", attempt, lease.toMillis(), work, null)))
                    .map(ignored -> "done")
                    .onFailure().recoverWithItem(OperationOutcomes::classify));
        }
        List<String> outcomes = Uni.join().all(operations).andFailFast().await()
                .atMost(LoggedSections.OPERATION_TIMEOUT.multipliedBy(2));
        for (String each : outcomes) {
            if (each.startsWith("harness failure")) {
                return each;
            }
        }
        return count + " at once: " + outcomes.stream().sorted().toList();
    }
}
