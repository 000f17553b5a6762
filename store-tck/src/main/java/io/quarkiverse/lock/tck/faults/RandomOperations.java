package io.quarkiverse.lock.tck.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;

/**
 * The workers of a randomized fault run ({@link FaultWorker}), and what they share: how many operations ran, the
 * handles they made, and how their operations ended. Every random choice of a worker is drawn on its own thread from
 * its own seeded randomness, before the operation starts, so a seed gives each worker the same sequence of operations;
 * their outcomes depend on timing.
 */
final class RandomOperations {

    private final FaultRunSettings settings;
    private final LoggedSections sections;
    private final SectionLog log;
    private final OperationHistory history = new OperationHistory();
    private final List<String> keys;
    private final long defaultLeaseMillis;
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong handleIds = new AtomicLong();
    private final OperationOutcomes outcomes = new OperationOutcomes();
    private final Map<String, TrackedHandle> handles = new ConcurrentHashMap<>();
    private final Map<String, String> lastOutcomes = new ConcurrentHashMap<>();
    private final long deadline;
    private final int totalWeight;

    /**
     * @param settings the run's settings
     * @param log the section log
     * @param keys the lock keys
     * @param defaultLease the registries' default lease (used by {@code acquireOnce})
     */
    RandomOperations(FaultRunSettings settings, SectionLog log, List<String> keys, Duration defaultLease) {
        this.settings = settings;
        this.sections = new LoggedSections(log);
        this.log = log;
        this.keys = keys;
        this.defaultLeaseMillis = defaultLease.toMillis();
        this.deadline = System.nanoTime() + settings.maxDuration().toNanos();
        int weights = 0;
        for (FaultOperation operation : FaultOperation.values()) {
            weights += weight(operation);
        }
        this.totalWeight = weights;
    }

    private int weight(FaultOperation operation) {
        return settings.without().contains(operation) ? 0 : operation.weight();
    }

    /**
     * Runs the workers, {@code workersPerInstance} per registry (all of them on one registry when there is one), and
     * waits for them.
     *
     * @param registries the instances
     * @return how many operations ran
     */
    long run(List<? extends LockRegistry> registries) throws InterruptedException {
        int workers = settings.instances() * settings.workersPerInstance();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            int instance = registries.size() == 1 ? 0 : w % registries.size();
            FaultWorker worker = new FaultWorker(this, instance, registries.get(instance),
                    new Random(settings.seed() * 1_000_003L + w));
            Thread thread = new Thread(worker, "fault-worker-" + w);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(settings.maxDuration().plus(LoggedSections.OPERATION_TIMEOUT.multipliedBy(3)).toMillis());
            if (thread.isAlive()) {
                outcomes.count("WORKER", "hung");
                thread.interrupt();
            }
        }
        return Math.min(started.get(), settings.operations());
    }

    /**
     * @return how many operations ended each way, as {@code OPERATION outcome}
     */
    Map<String, Long> outcomes() {
        return outcomes.counts();
    }

    /**
     * @return every handle that still reports a hold (a fencing token) now that no operation runs
     */
    List<HandleStillHolding> handlesStillHolding() {
        List<HandleStillHolding> holding = new ArrayList<>();
        for (TrackedHandle handle : handles.values()) {
            handle.lock().fencingToken().ifPresent(token -> holding.add(new HandleStillHolding(handle.key(), token,
                    handle.id() + " (" + handle.type() + ", last " + lastOutcomes.get(handle.id()) + ")")));
        }
        return holding;
    }

    /**
     * @return whether the deadline stopped the run before all its operations ran
     */
    boolean stoppedByDeadline() {
        return started.get() < settings.operations();
    }

    /**
     * @return whether a worker may start one more operation: the run has operations left and time
     */
    boolean nextOperation() {
        if (System.nanoTime() > deadline) {
            return false;
        }
        return started.incrementAndGet() <= settings.operations();
    }

    /**
     * @param random the worker's randomness
     * @return an operation, drawn by weight
     */
    FaultOperation pick(Random random) {
        int draw = random.nextInt(totalWeight);
        for (FaultOperation operation : FaultOperation.values()) {
            draw -= weight(operation);
            if (draw < 0) {
                return operation;
            }
        }
        throw new IllegalStateException("weights");
    }

    /**
     * @param random the worker's randomness
     * @return a key, drawn at random
     */
    String pickKey(Random random) {
        return keys.get(random.nextInt(keys.size()));
    }

    /**
     * @param instance the instance the handle belongs to
     * @return a new handle id, unique in the run
     */
    String nextHandleId(int instance) {
        return "i" + instance + "h" + handleIds.incrementAndGet();
    }

    /**
     * @param lock a handle made for the run
     * @param id its id
     * @param type its type
     * @param operation the operation that made it
     * @return the handle, recording its acquisitions and releases in the run's history
     */
    RecordedLock recorded(ReactiveDistributedLock lock, String id, LockType type, String operation) {
        return new RecordedLock(lock, history, log::now, id, type == LockType.REENTRANT, type == LockType.OVERRIDING,
                defaultLeaseMillis, operation);
    }

    /**
     * @return the history of the run's acquisitions and releases
     */
    OperationHistory history() {
        return history;
    }

    /**
     * @param handle a handle made for the run, asked at its end whether it still holds
     */
    void track(TrackedHandle handle) {
        handles.put(handle.id(), handle);
    }

    /**
     * @param handleId the handle an operation used
     * @param outcome the operation and how it ended
     */
    void lastOutcome(String handleId, String outcome) {
        lastOutcomes.put(handleId, outcome);
    }

    OperationOutcomes outcomeCounts() {
        return outcomes;
    }

    LoggedSections sections() {
        return sections;
    }

    long defaultLeaseMillis() {
        return defaultLeaseMillis;
    }
}
