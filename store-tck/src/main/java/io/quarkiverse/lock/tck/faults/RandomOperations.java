package io.quarkiverse.lock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * The workers of a randomized fault run: each runs random operations one after the other on a few keys, through
 * handles of its instance's registry (kept and used again half of the time), until the run has done its operations.
 * Every random choice of a worker is drawn on its own thread from its own seeded randomness, before the operation
 * starts, so a seed gives each worker the same sequence of operations; their outcomes depend on timing.
 * <p>
 * A section is logged only inside an operation that reported the lock acquired; what a worker acquires with
 * {@code acquire} it always releases (cancellation and interrupts hit only the acquisition, or an
 * {@code acquireAndExecute} whose release is the handle's job).
 */
final class RandomOperations {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(30);
    /** How long an overriding request may take effect after its caller stopped waiting for it. */
    private static final long OVERRIDE_MARGIN_MICROS = 3_000_000;

    /** The operations, each with its weight. */
    enum Operation {
        EXECUTE_WAITING(20),
        EXECUTE_ONE_TRY(10),
        ACQUIRE_RELEASE(12),
        ACQUIRE_ONCE(8),
        ACQUIRE_FOREVER(1),
        CANCEL_EXECUTE(10),
        CANCEL_ACQUIRE(5),
        BLOCKING_INTERRUPTED(8),
        REENTRANT_NESTED(12),
        OVERRIDING(2),
        CONCURRENT_ON_ONE_HANDLE(8);

        final int weight;

        Operation(int weight) {
            this.weight = weight;
        }
    }

    private final FaultRunSettings settings;
    private final SectionLog log;
    private final List<String> keys;
    private final long defaultLeaseMillis;
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong sectionIds = new AtomicLong();
    private final AtomicLong handleIds = new AtomicLong();
    private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
    private final Map<String, Handle> handles = new ConcurrentHashMap<>();
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
        this.log = log;
        this.keys = keys;
        this.defaultLeaseMillis = defaultLease.toMillis();
        this.deadline = System.nanoTime() + settings.maxDuration().toNanos();
        int weights = 0;
        for (Operation operation : Operation.values()) {
            weights += weight(operation);
        }
        this.totalWeight = weights;
    }

    private int weight(Operation operation) {
        return settings.without().contains(operation) ? 0 : operation.weight;
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
            Worker worker = new Worker(instance, registries.get(instance),
                    new Random(settings.seed() * 1_000_003L + w));
            Thread thread = new Thread(worker, "fault-worker-" + w);
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(settings.maxDuration().plus(OPERATION_TIMEOUT.multipliedBy(3)).toMillis());
            if (thread.isAlive()) {
                outcome("WORKER", "hung");
                thread.interrupt();
            }
        }
        return Math.min(started.get(), settings.operations());
    }

    /**
     * @return how many operations ended each way, as {@code OPERATION outcome}
     */
    Map<String, Long> outcomes() {
        Map<String, Long> counts = new TreeMap<>();
        outcomes.forEach((k, v) -> counts.put(k, v.sum()));
        return counts;
    }

    /**
     * @return every handle that still reports a hold (a fencing token) now that no operation runs
     */
    List<Holding> handlesStillHolding() {
        List<Holding> holding = new ArrayList<>();
        for (Handle handle : handles.values()) {
            handle.lock().fencingToken().ifPresent(token -> holding.add(new Holding(handle.key(), token,
                    handle.id() + " (" + handle.type() + ", last " + lastOutcomes.get(handle.id()) + ")")));
        }
        return holding;
    }

    /**
     * A handle that reports a hold.
     *
     * @param key the lock key
     * @param token the hold's token
     * @param handle the handle, and how its last operation ended
     */
    record Holding(String key, long token, String handle) {
    }

    /**
     * @return whether the deadline stopped the run before all its operations ran
     */
    boolean stoppedByDeadline() {
        return started.get() < settings.operations();
    }

    private boolean nextOperation() {
        if (System.nanoTime() > deadline) {
            return false;
        }
        return started.incrementAndGet() <= settings.operations();
    }

    private void outcome(String operation, String outcome) {
        outcomes.computeIfAbsent(operation + " " + outcome, k -> new LongAdder()).increment();
    }

    static String classify(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof CannotAcquireLockException) {
            return "not acquired";
        }
        if (cause instanceof LockExpiredException) {
            return "lease expired";
        }
        if (cause instanceof LockException) {
            return "store failure";
        }
        if (cause instanceof InterruptedException) {
            return "interrupted";
        }
        if (cause instanceof CancellationException) {
            return "cancelled";
        }
        if (cause instanceof TimeoutException || cause instanceof io.smallrye.mutiny.TimeoutException) {
            return "hung";
        }
        if (cause instanceof HarnessFailure) {
            return "harness failure: " + cause.getMessage();
        }
        return "unexpected " + cause.getClass().getSimpleName();
    }

    /** A handle with the ids the log needs. */
    private record Handle(String id, int instance, String key, LockType type, ReactiveDistributedLock lock,
            String operation) {

        Handle during(String operation) {
            return new Handle(id, instance, key, type, lock, operation);
        }

        boolean reentrant() {
            return type == LockType.REENTRANT;
        }
    }

    /** The section log failed: the run cannot be trusted. */
    static final class HarnessFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;

        HarnessFailure(Throwable cause) {
            super(cause.toString(), cause);
        }
    }

    /** One worker: a thread running operations one after the other. */
    private final class Worker implements Runnable {

        private final int instance;
        private final LockRegistry registry;
        private final Random random;
        private final Map<String, Handle> kept = new HashMap<>();
        private Operation current;
        private Handle used;

        Worker(int instance, LockRegistry registry, Random random) {
            this.instance = instance;
            this.registry = registry;
            this.random = random;
        }

        @Override
        public void run() {
            while (nextOperation()) {
                Operation operation = pick();
                String key = keys.get(random.nextInt(keys.size()));
                String outcome;
                try {
                    outcome = run(operation, key);
                } catch (RuntimeException e) {
                    outcome = classify(e);
                }
                outcome(operation.name(), outcome);
                if (used != null) {
                    lastOutcomes.put(used.id(), operation.name() + ": " + outcome);
                    used = null;
                }
            }
        }

        private Operation pick() {
            int draw = random.nextInt(totalWeight);
            for (Operation operation : Operation.values()) {
                draw -= weight(operation);
                if (draw < 0) {
                    return operation;
                }
            }
            throw new IllegalStateException("weights");
        }

        private String run(Operation operation, String key) {
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
                    return cancelExecute(handle(key, singleOrReentrant()));
                case CANCEL_ACQUIRE:
                    return cancelAcquire(handle(key, singleOrReentrant()));
                case BLOCKING_INTERRUPTED:
                    return blocking(handle(key, singleOrReentrant()));
                case REENTRANT_NESTED:
                    return nested(handle(key, LockType.REENTRANT));
                case OVERRIDING:
                    return overriding(newHandle(key, LockType.OVERRIDING));
                case CONCURRENT_ON_ONE_HANDLE:
                    return concurrent(handle(key, singleOrReentrant()));
                default:
                    throw new IllegalStateException(operation.name());
            }
        }

        private LockType singleOrReentrant() {
            return random.nextInt(4) == 0 ? LockType.REENTRANT : LockType.SINGLE_ENTRANT;
        }

        /** Half of the time the handle this worker used last for that key and type, else a new one. */
        private Handle handle(String key, LockType type) {
            String slot = key + "/" + type;
            Handle handle = kept.get(slot);
            if (handle == null || random.nextBoolean()) {
                handle = newHandle(key, type);
                kept.put(slot, handle);
            }
            used = handle.during(current.name());
            return used;
        }

        private Handle newHandle(String key, LockType type) {
            ReactiveDistributedLock lock = registry.obtain(key, type).withLeaseRenewal(random.nextBoolean());
            Handle handle = new Handle("i" + instance + "h" + handleIds.incrementAndGet(), instance, key, type, lock,
                    current.name());
            handles.put(handle.id(), handle);
            used = handle;
            return handle;
        }

        private Duration waitTime() {
            return Duration.ofMillis(random.nextInt(1000));
        }

        private Duration lease() {
            return Duration.ofMillis(1000 + random.nextInt(2000));
        }

        /** Mostly short, sometimes long; always far shorter than the shortest lease. */
        private Duration work() {
            int draw = random.nextInt(100);
            if (draw < 80) {
                return Duration.ofMillis(random.nextInt(10));
            }
            if (draw < 98) {
                return Duration.ofMillis(10 + random.nextInt(40));
            }
            return Duration.ofMillis(100 + random.nextInt(200));
        }

        private String execute(Handle handle, Duration wait, Duration lease) {
            Duration work = work();
            return await(attempted(attempt -> handle.lock().acquireAndExecute(wait, lease,
                    section(handle, "-", attempt, lease.toMillis(), work, null)))
                    .map(ignored -> "done"));
        }

        private String acquireAndRelease(Handle handle, Duration wait, Duration lease) {
            Duration work = work();
            return await(attempted(attempt -> handle.lock().acquire(wait, lease)
                    .flatMap(acquired -> acquired
                            ? sectionThenRelease(handle, attempt, lease.toMillis(), work)
                            : Uni.createFrom().item("not acquired"))));
        }

        private String acquireOnceOrForever(Handle handle, boolean forever) {
            Duration work = forever ? Duration.ofMillis(random.nextInt(10)) : work();
            long lease = forever ? 0 : defaultLeaseMillis;
            return await(attempted(attempt -> (forever ? handle.lock().acquireForever() : handle.lock().acquireOnce())
                    .flatMap(acquired -> acquired ? sectionThenRelease(handle, attempt, lease, work)
                            : Uni.createFrom().item("not acquired"))));
        }

        /** The section, then the release whatever became of the section. */
        private Uni<String> sectionThenRelease(Handle handle, long attempt, long leaseMillis, Duration work) {
            AtomicReference<Throwable> sectionFailure = new AtomicReference<>();
            return section(handle, "-", attempt, leaseMillis, work, null)
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

        private String cancelExecute(Handle handle) {
            Duration wait = waitTime();
            Duration lease = lease();
            Duration work = work();
            long cancelAfter = random.nextInt((int) wait.toMillis() + 60);
            Uni<String> operation = attempted(attempt -> handle.lock().acquireAndExecute(wait, lease,
                    section(handle, "-", attempt, lease.toMillis(), work, null)))
                    .map(ignored -> "done before the cancellation");
            return cancelAfter(operation, cancelAfter);
        }

        /**
         * Cancels a pending acquisition; if it reported the lock acquired first, the worker runs its section and
         * releases, out of the cancellation's reach.
         */
        private String cancelAcquire(Handle handle) {
            Duration wait = waitTime();
            Duration lease = lease();
            Duration work = work();
            long cancelAfter = random.nextInt((int) wait.toMillis() + 60);
            long attempt = now();
            CompletableFuture<Boolean> acquired = new CompletableFuture<>();
            Cancellable subscription = subscribeReleasingLateGrants(handle, handle.lock().acquire(wait, lease),
                    acquired);
            sleep(cancelAfter);
            subscription.cancel();
            if (acquired.cancel(false)) {
                retire(handle);
                return "cancelled";
            }
            try {
                return acquired.join()
                        ? await(sectionThenRelease(handle, attempt, lease.toMillis(), work))
                        : "not acquired";
            } catch (CompletionException e) {
                return classify(e);
            }
        }

        private String blocking(Handle handle) {
            Duration wait = waitTime();
            Duration lease = lease();
            Duration work = work();
            boolean execute = random.nextBoolean();
            boolean interrupt = random.nextInt(10) < 6;
            long interruptAfter = random.nextInt((int) wait.toMillis() + 100);
            AtomicReference<String> outcome = new AtomicReference<>("hung");
            long attempt = now();
            Thread thread = new Thread(() -> outcome.set(blockingOperation(handle, attempt, wait, lease, work,
                    execute)), "fault-blocking-" + handle.id());
            thread.setDaemon(true);
            thread.start();
            try {
                if (interrupt) {
                    thread.join(interruptAfter);
                    thread.interrupt();
                }
                thread.join(OPERATION_TIMEOUT.toMillis());
                if (thread.isAlive()) {
                    thread.interrupt();
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
        private String blockingOperation(Handle handle, long attempt, Duration wait, Duration lease, Duration work,
                boolean execute) {
            DistributedLock lock = handle.lock().toBlocking();
            try {
                if (execute) {
                    lock.acquireAndExecute(wait, lease, () -> {
                        awaitSection(section(handle, "-", attempt, lease.toMillis(), work, null));
                        return null;
                    });
                    return "done";
                }
                if (!lock.acquire(wait, lease)) {
                    return "not acquired";
                }
                try {
                    awaitSection(section(handle, "-", attempt, lease.toMillis(), work, null));
                } finally {
                    boolean interrupted = Thread.interrupted();
                    lock.release();
                    if (interrupted) {
                        Thread.currentThread().interrupt();
                    }
                }
                return "released";
            } catch (RuntimeException e) {
                return classify(e);
            }
        }

        /**
         * A reentrant handle enters its hold again from inside its section, up to four levels deep; now and then a
         * nested acquisition is cancelled at a random moment (during its re-entry or its section).
         */
        private String nested(Handle handle) {
            int depth = 2 + random.nextInt(3);
            Duration[] work = new Duration[depth];
            long[] cancelAfter = new long[depth];
            for (int level = 0; level < depth; level++) {
                work[level] = Duration.ofMillis(random.nextInt(8));
                cancelAfter[level] = random.nextInt(5) == 0 ? 1 + random.nextInt(15) : -1;
            }
            Duration wait = waitTime();
            Duration lease = lease();
            return await(attempted(attempt -> handle.lock().acquireAndExecute(wait, lease,
                    section(handle, "-", attempt, lease.toMillis(), work[0],
                            nestedIn(handle, 1, depth, lease, work, cancelAfter, false))))
                    .map(ignored -> "done"));
        }

        /**
         * @param underTimer whether an enclosing nested level has a timer that may cancel it, and with it this level:
         *        then this level's section may be cancelled while it runs too
         */
        private Function<String, Uni<Void>> nestedIn(Handle handle, int level, int depth, Duration lease,
                Duration[] work, long[] cancelAfter, boolean underTimer) {
            if (level >= depth) {
                return null;
            }
            boolean cancellable = underTimer || cancelAfter[level] > 0;
            return parent -> {
                Uni<Void> inner = attempted(attempt -> handle.lock().acquireAndExecute(Duration.ZERO, lease,
                        section(handle, parent, attempt, lease.toMillis(), work[level],
                                nestedIn(handle, level + 1, depth, lease, work, cancelAfter, cancellable),
                                cancellable)));
                if (cancelAfter[level] > 0) {
                    inner = inner.ifNoItem().after(Duration.ofMillis(cancelAfter[level])).recoverWithItem((Void) null);
                }
                return inner.onFailure(failure -> !(failure instanceof HarnessFailure)).recoverWithNull();
            };
        }

        /**
         * Takes the lock whoever holds it, runs a section, and frees it whoever holds it; a third of the time the
         * take-over is cancelled. Its window spans from the request to the release's answer (plus a margin for
         * requests whose answer never came).
         */
        private String overriding(Handle handle) {
            Duration lease = Duration.ofMillis(500 + random.nextInt(1000));
            Duration work = Duration.ofMillis(random.nextInt(10));
            boolean cancel = random.nextInt(3) == 0;
            long cancelAfter = random.nextInt(20);
            long from = now();
            CompletableFuture<Boolean> acquired = new CompletableFuture<>();
            Cancellable subscription = subscribeReleasingLateGrants(handle,
                    handle.lock().acquire(Duration.ZERO, lease), acquired);
            String outcome;
            boolean answered = true;
            long token = -1;
            if (cancel) {
                sleep(cancelAfter);
                subscription.cancel();
            }
            if (cancel && acquired.cancel(false)) {
                outcome = "cancelled";
                answered = false;
            } else {
                try {
                    if (acquired.get(OPERATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                        token = handle.lock().fencingToken().orElse(-1);
                        outcome = await(sectionThenRelease(handle, from, lease.toMillis(), work));
                        answered = "released".equals(outcome) || "release answered false".equals(outcome);
                    } else {
                        outcome = "not acquired";
                    }
                } catch (Exception e) {
                    outcome = classify(e instanceof ExecutionException ? e.getCause() : e);
                    answered = false;
                }
            }
            log.overriding(new OverrideWindow(handle.key(), handle.id(), from,
                    now() + (answered ? 0 : OVERRIDE_MARGIN_MICROS), token, outcome));
            return outcome;
        }

        /** Two or three acquisitions on one handle at once. */
        private String concurrent(Handle handle) {
            int count = 2 + random.nextInt(2);
            List<Uni<String>> operations = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Duration wait = waitTime();
                Duration lease = lease();
                Duration work = work();
                operations.add(attempted(attempt -> handle.lock().acquireAndExecute(wait, lease,
                        section(handle, "-", attempt, lease.toMillis(), work, null)))
                        .map(ignored -> "done")
                        .onFailure().recoverWithItem(RandomOperations::classify));
            }
            List<String> outcomes = Uni.join().all(operations).andFailFast().await()
                    .atMost(OPERATION_TIMEOUT.multipliedBy(2));
            for (String each : outcomes) {
                if (each.startsWith("harness failure")) {
                    return each;
                }
            }
            return count + " at once: " + outcomes.stream().sorted().toList();
        }

        /**
         * Never uses the handle again: its cancelled acquisition may still deliver a grant, which
         * {@link #subscribeReleasingLateGrants} releases, and that release must not hit a later operation's hold.
         */
        private void retire(Handle handle) {
            kept.computeIfPresent(handle.key() + "/" + handle.type(),
                    (slot, existing) -> existing.id().equals(handle.id()) ? null : existing);
        }

        /**
         * Subscribes to an acquisition that may be cancelled: a grant delivered after the worker gave up on it (the
         * cancellation raced the delivery) is released at once, as a careful caller would, since the handle holds it.
         */
        private Cancellable subscribeReleasingLateGrants(Handle handle, Uni<Boolean> acquisition,
                CompletableFuture<Boolean> acquired) {
            String operation = current.name();
            return acquisition.subscribe().with(granted -> {
                if (!acquired.complete(granted) && granted) {
                    outcome(operation, "granted as it was cancelled, released");
                    handle.lock().release().subscribe().with(released -> {
                    }, failure -> outcome(operation, "late grant's release: " + classify(failure)));
                }
            }, acquired::completeExceptionally);
        }

        private String cancelAfter(Uni<String> operation, long millis) {
            CompletableFuture<String> result = new CompletableFuture<>();
            Cancellable subscription = operation.subscribe().with(result::complete,
                    failure -> result.complete(classify(failure)));
            sleep(millis);
            if (!result.isDone()) {
                subscription.cancel();
                result.complete("cancelled");
            }
            return result.join();
        }
    }

    /** Asks the store's clock, then runs the acquisition with that time as its request time. */
    private <T> Uni<T> attempted(Function<Long, Uni<T>> acquisition) {
        return log.now().onFailure().transform(HarnessFailure::new).flatMap(acquisition::apply);
    }

    private long now() {
        try {
            return log.now().await().atMost(OPERATION_TIMEOUT);
        } catch (RuntimeException e) {
            throw new HarnessFailure(e);
        }
    }

    /**
     * A critical section: stamped at its start (after the lock was reported acquired) and at its end (before the
     * release is asked for), with the work, and the nested sections, between the stamps. A section cancelled before
     * its end stamp answered is kept as unfinished, even if the stamp reaches the log: the stamp, on another
     * connection, may land after the release that the cancellation triggers.
     */
    private Uni<Void> section(Handle handle, String parent, long attempt, long leaseMillis, Duration work,
            Function<String, Uni<Void>> inner) {
        return section(handle, parent, attempt, leaseMillis, work, inner, false);
    }

    /**
     * @param cancellable whether the section's execution may be cancelled by a timer while it runs (its own level's,
     *        or an enclosing level's): Mutiny does not stop code that already runs, so such a section may end after
     *        its cancellation released the lock; it is kept as ended only if its handle still holds its hold once the
     *        end stamp answered, else as unfinished (which wins over the ended record)
     */
    private Uni<Void> section(Handle handle, String parent, long attempt, long leaseMillis, Duration work,
            Function<String, Uni<Void>> inner, boolean cancellable) {
        return Uni.createFrom().deferred(() -> {
            String id = "s" + sectionIds.incrementAndGet();
            long token = handle.lock().fencingToken().orElse(-1);
            AtomicReference<Section> startedSection = new AtomicReference<>();
            AtomicBoolean ended = new AtomicBoolean();
            return log.start(handle.key(), token)
                    .onFailure().transform(HarnessFailure::new)
                    .flatMap(stamp -> {
                        Section section = new Section(id, handle.operation(), handle.type() == LockType.OVERRIDING,
                                handle.key(), token, handle.id(), handle.instance(), handle.reentrant(), parent,
                                attempt, leaseMillis, stamp.time(), -1, stamp.held(), Section.UNKNOWN);
                        startedSection.set(section);
                        Uni<Void> body = work.isZero() ? Uni.createFrom().voidItem()
                                : Uni.createFrom().voidItem().onItem().delayIt().by(work);
                        if (inner != null) {
                            body = body.flatMap(ignored -> inner.apply(id));
                        }
                        // A cancellable section counts as ended only if its handle still holds its hold once the
                        // end stamp answered (so it held it at the stamp: a token never comes back); checked before
                        // the stamp, the cancellation could release the lock between the check and the stamp.
                        return body.flatMap(ignored -> log.end(section).onFailure().transform(HarnessFailure::new)
                                .invoke(() -> ended.set(!cancellable
                                        || handle.lock().fencingToken().orElse(-1) == token))
                                .replaceWithVoid());
                    })
                    .onTermination().invoke(() -> {
                        Section section = startedSection.get();
                        if (section != null && !ended.get()) {
                            log.unfinished(section);
                        }
                    })
                    .replaceWithVoid();
        });
    }

    private static String await(Uni<String> operation) {
        try {
            return operation.await().atMost(OPERATION_TIMEOUT);
        } catch (RuntimeException e) {
            return classify(e);
        }
    }

    /**
     * Awaits a section on a thread that may be interrupted: an interrupt cancels the section (Mutiny's own await
     * would leave it running) and fails with the interruption.
     */
    private static void awaitSection(Uni<Void> section) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Cancellable subscription = section.subscribe().with(done::complete, done::completeExceptionally);
        try {
            done.get(OPERATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            subscription.cancel();
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
        } catch (TimeoutException e) {
            subscription.cancel();
            throw new CompletionException(e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new CompletionException(e.getCause());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
