package io.quarkiverse.lock.tck.faults;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.tck.faults.LockOperation.Kind;
import io.quarkiverse.lock.tck.faults.LockOperation.Outcome;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * A handle of a fault run that records its acquisitions and releases in an {@link OperationHistory}, on the section
 * log's clock. An invocation is stamped before the handle is asked (the stamp is awaited); a completion is stamped
 * after the answer, without holding the answer back (a caller cancelled while a stamp was awaited would drop a grant
 * the handle already holds). An {@code acquireAndExecute} records its acquisition when the action starts and its
 * release when the action ends, stamped before the release is asked for. The blocking view is the handle's own: its
 * caller records through {@link #invokedAt}, {@link #execution} and {@link #releaseInvokedNow}. {@code extend},
 * {@code isAcquired} and the {@code Multi} executions are not recorded.
 */
final class RecordedLock implements ReactiveDistributedLock {

    private final ReactiveDistributedLock delegate;
    private final OperationHistory history;
    private final Supplier<Uni<Long>> clock;
    private final String handle;
    private final boolean reentrant;
    private final boolean overriding;
    private final long defaultLeaseMillis;
    private volatile String operation;

    /**
     * @param delegate the handle
     * @param history where its operations are recorded
     * @param clock the section log's clock
     * @param handle the handle's id in the run
     * @param reentrant whether it is reentrant
     * @param overriding whether it is overriding
     * @param defaultLeaseMillis the lease of an acquisition that names none
     * @param operation the operation that uses it
     */
    RecordedLock(ReactiveDistributedLock delegate, OperationHistory history, Supplier<Uni<Long>> clock, String handle,
            boolean reentrant, boolean overriding, long defaultLeaseMillis, String operation) {
        this.delegate = delegate;
        this.history = history;
        this.clock = clock;
        this.handle = handle;
        this.reentrant = reentrant;
        this.overriding = overriding;
        this.defaultLeaseMillis = defaultLeaseMillis;
        this.operation = operation;
    }

    /**
     * @param name the operation that uses the handle from now on, named in the history
     */
    void during(String name) {
        operation = name;
    }

    private Uni<OperationHistory.Pending> invoked(Kind kind, long leaseMillis) {
        return clock.get().onFailure().transform(HarnessFailure::new)
                .map(time -> invokedAt(kind, leaseMillis, time));
    }

    /**
     * @param time when it is invoked, read before
     * @return the operation, recorded as invoked; a release is recorded for the hold the handle reports now
     */
    OperationHistory.Pending invokedAt(Kind kind, long leaseMillis, long time) {
        long token = kind == Kind.RELEASE ? delegate.fencingToken().orElse(-1) : -1;
        return history.invoked(operation, kind, delegate.getLockKey(), handle, reentrant, overriding, leaseMillis,
                token, time);
    }

    /**
     * Stamps the completion once the clock answers, after the answer reached the caller; a completion the clock
     * cannot stamp counts as never before the end of time.
     */
    void completed(OperationHistory.Pending pending, Outcome outcome) {
        if (pending == null) {
            return;
        }
        long token = outcome == Outcome.OK ? delegate.fencingToken().orElse(-1) : -1;
        clock.get().subscribe().with(time -> pending.completed(outcome, token, time),
                failure -> pending.completed(outcome, token, Long.MAX_VALUE));
    }

    /**
     * Records a release about to be invoked by a blocking caller, once the clock answered (an interrupt of the caller
     * is kept for the release to see).
     *
     * @return the release, or {@code null} if the clock could not tell (the release is then not recorded)
     */
    OperationHistory.Pending releaseInvokedNow() {
        boolean interrupted = Thread.interrupted();
        try {
            return invokedAt(Kind.RELEASE, 0, clock.get().await().atMost(FaultFixture.TIMEOUT));
        } catch (RuntimeException e) {
            return null;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * @return how an acquisition that failed so ended: not acquired (the wait ran out), else unknown
     */
    static Outcome acquisitionOutcome(Throwable failure) {
        return cause(failure) instanceof CannotAcquireLockException ? Outcome.FAIL : Outcome.UNKNOWN;
    }

    /**
     * @return how a release that failed so ended: the handle's hold was gone already (its lease ran out), else unknown
     */
    static Outcome releaseOutcome(Throwable failure) {
        return cause(failure) instanceof LockExpiredException ? Outcome.FAIL : Outcome.UNKNOWN;
    }

    private static Throwable cause(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private Uni<Boolean> acquisition(long leaseMillis, Supplier<Uni<Boolean>> acquire) {
        return invoked(Kind.ACQUIRE, leaseMillis).flatMap(pending -> acquire.get()
                .onItem().invoke(granted -> completed(pending, granted ? Outcome.OK : Outcome.FAIL))
                .onFailure().invoke(failure -> completed(pending, acquisitionOutcome(failure)))
                .onCancellation().invoke(() -> completed(pending, Outcome.UNKNOWN)));
    }

    private <T> Uni<T> execution(long leaseMillis, Uni<T> action, Function<Uni<T>, Uni<T>> execute) {
        return invoked(Kind.ACQUIRE, leaseMillis).flatMap(acquisition -> {
            Execution execution = new Execution(acquisition);
            Uni<T> recorded = Uni.createFrom().deferred(() -> {
                execution.actionStarted();
                return action.onItemOrFailure().call((item, failure) -> invoked(Kind.RELEASE, 0)
                        .invoke(release -> execution.release = release));
            });
            return execute.apply(recorded)
                    .onItem().invoke(() -> execution.ended(Outcome.OK, Outcome.OK))
                    .onFailure().invoke(failure -> execution.ended(acquisitionOutcome(failure),
                            releaseOutcome(failure)))
                    .onCancellation().invoke(() -> execution.ended(Outcome.UNKNOWN, Outcome.UNKNOWN));
        });
    }

    /**
     * @param acquisition an {@code acquireAndExecute}'s acquisition, recorded as invoked
     * @return the execution, to record as it goes
     */
    Execution execution(OperationHistory.Pending acquisition) {
        return new Execution(acquisition);
    }

    /** An {@code acquireAndExecute} as it goes: whether its action started, and its release once invoked. */
    final class Execution {

        private final OperationHistory.Pending acquisition;
        private volatile boolean started;
        volatile OperationHistory.Pending release;

        private Execution(OperationHistory.Pending acquisition) {
            this.acquisition = acquisition;
        }

        /** Records the acquisition as completed: the action starts, so the lock is held. */
        void actionStarted() {
            started = true;
            completed(acquisition, Outcome.OK);
        }

        /**
         * Records how the execution ended: its release's outcome once it was invoked, else its acquisition's.
         */
        void ended(Outcome acquisitionOutcome, Outcome releaseOutcome) {
            if (release != null) {
                completed(release, releaseOutcome);
            } else if (!started) {
                completed(acquisition, acquisitionOutcome);
            }
        }
    }

    @Override
    public String getLockKey() {
        return delegate.getLockKey();
    }

    @Override
    public Uni<Boolean> acquireOnce() {
        return acquisition(defaultLeaseMillis, delegate::acquireOnce);
    }

    @Override
    public Uni<Boolean> acquireForever() {
        return acquisition(0, delegate::acquireForever);
    }

    @Override
    public Uni<Boolean> acquire() {
        return acquisition(defaultLeaseMillis, delegate::acquire);
    }

    @Override
    public Uni<Boolean> acquire(Duration wait) {
        return acquisition(defaultLeaseMillis, () -> delegate.acquire(wait));
    }

    @Override
    public Uni<Boolean> acquire(Duration wait, Duration lease) {
        return acquisition(lease.toMillis(), () -> delegate.acquire(wait, lease));
    }

    @Override
    public Uni<Boolean> release() {
        return invoked(Kind.RELEASE, 0).flatMap(pending -> delegate.release()
                .onItem().invoke(released -> completed(pending, released ? Outcome.OK : Outcome.FAIL))
                .onFailure().invoke(failure -> completed(pending, releaseOutcome(failure)))
                .onCancellation().invoke(() -> completed(pending, Outcome.UNKNOWN)));
    }

    @Override
    public Uni<Boolean> extend(Duration lease) {
        return delegate.extend(lease);
    }

    @Override
    public Uni<Boolean> isAcquired() {
        return delegate.isAcquired();
    }

    @Override
    public OptionalLong fencingToken() {
        return delegate.fencingToken();
    }

    @Override
    public ReactiveDistributedLock withLeaseRenewal(boolean renew) {
        return new RecordedLock(delegate.withLeaseRenewal(renew), history, clock, handle, reentrant, overriding,
                defaultLeaseMillis, operation);
    }

    @Override
    public ReactiveDistributedLock withHoldAtLeast(Duration holdAtLeast) {
        return new RecordedLock(delegate.withHoldAtLeast(holdAtLeast), history, clock, handle, reentrant, overriding,
                defaultLeaseMillis, operation);
    }

    @Override
    public ReactiveDistributedLock withMetricsName(String name) {
        return new RecordedLock(delegate.withMetricsName(name), history, clock, handle, reentrant, overriding,
                defaultLeaseMillis, operation);
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Uni<T> action) {
        return execution(defaultLeaseMillis, action, delegate::acquireAndExecute);
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Duration wait, Uni<T> action) {
        return execution(defaultLeaseMillis, action, recorded -> delegate.acquireAndExecute(wait, recorded));
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Duration wait, Duration lease, Uni<T> action) {
        return execution(lease.toMillis(), action, recorded -> delegate.acquireAndExecute(wait, lease, recorded));
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Multi<T> action) {
        return delegate.acquireAndExecuteMany(action);
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Duration wait, Multi<T> action) {
        return delegate.acquireAndExecuteMany(wait, action);
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Duration wait, Duration lease, Multi<T> action) {
        return delegate.acquireAndExecuteMany(wait, lease, action);
    }

    @Override
    public DistributedLock toBlocking() {
        return delegate.toBlocking();
    }
}
