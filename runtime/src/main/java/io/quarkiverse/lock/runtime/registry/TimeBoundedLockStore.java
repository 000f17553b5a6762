package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;

/**
 * Bounds every operation of a store in time, so that a store that does not answer (a hung server, a lost network)
 * makes operations fail within {@code quarkus.lock.operation-timeout} instead of hanging. The store is told of a
 * timeout ({@link LockStore#noAnswer(Duration)}), so it can replace a connection that swallows traffic.
 * <p>
 * An acquisition or take-over that timed out is not cancelled: a store client may deliver it anyway (a command already
 * on the wire, Redis's client sending a script again after {@code NOSCRIPT}, a driver retrying a write on another
 * connection), after the take-back its caller sent on the timeout. So it is left to run, and taken back once more when
 * it completes. Any other operation that timed out is cancelled, so a queued command that timed out is never sent.
 * <p>
 * A store that answers that it cannot do what was asked (a store without {@link LockStore#listHeld}) or that the
 * request was invalid has answered: that ends an outage as any answer does, and never starts one.
 */
final class TimeBoundedLockStore extends ForwardingLockStore {

    private static final Cancellable TIMED_OUT = () -> {
    };

    private final Duration timeout;
    private final long timeoutMillis;
    private final Vertx vertx;
    private final LateAnswers lateAnswers;
    private final StoreOutage outage;
    /** Operations the store has not ended yet, answered or not: what a closing registry lets finish first. */
    private final AtomicInteger inFlight = new AtomicInteger();

    /**
     * @param timeout how long an operation may take, positive
     * @param outage told of each operation's answer, failure or timeout
     */
    TimeBoundedLockStore(LockStore delegate, Duration timeout, Vertx vertx, LateAnswers lateAnswers,
            StoreOutage outage) {
        super(delegate);
        this.timeout = timeout;
        this.timeoutMillis = Math.max(1, timeout.toMillis());
        this.vertx = vertx;
        this.lateAnswers = lateAnswers;
        this.outage = outage;
    }

    /** What to do with an acquisition that the store completed after it had timed out. */
    @FunctionalInterface
    interface LateAnswers {

        /** The store may have granted the acquisition, or put it in line, after its caller gave up. */
        void takeBack(String key, String owner, long leaseMillis);
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        return bounded("acquire", delegate.tryAcquire(key, owner, leaseMillis, waiting), lateTakeBack(key, owner, leaseMillis));
    }

    @Override
    public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
        return bounded("take over", delegate.takeOver(key, owner, leaseMillis), lateTakeBack(key, owner, leaseMillis));
    }

    @Override
    public Uni<Boolean> forceRelease(String key) {
        return bounded("force release", delegate.forceRelease(key), null);
    }

    @Override
    public Uni<Boolean> takeBack(String key, String owner) {
        return bounded("take back", delegate.takeBack(key, owner), null);
    }

    @Override
    public Uni<Boolean> release(String key, String owner) {
        return bounded("release", delegate.release(key, owner), null);
    }

    @Override
    public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
        return bounded("renew", delegate.renew(key, owner, leaseMillis), null);
    }

    @Override
    public Uni<Boolean> releaseAfter(String key, String owner, long leaseMillis) {
        return bounded("release", delegate.releaseAfter(key, owner, leaseMillis), null);
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        return bounded("check", delegate.isHeld(key, owner), null);
    }

    @Override
    public Uni<LockPage> listHeld(String cursor, int limit) {
        return bounded("list", delegate.listHeld(cursor, limit), null);
    }

    @Override
    public Uni<Void> ping() {
        return bounded("ping", delegate.ping(), null);
    }

    private Runnable lateTakeBack(String key, String owner, long leaseMillis) {
        return () -> lateAnswers.takeBack(key, owner, leaseMillis);
    }

    /**
     * Races the operation against a Vert.x timer, cancelled (and forgotten) as soon as the operation answers, so a
     * high rate of operations keeps no pending timeouts in memory. The caller's cancellation cancels the operation,
     * and so does the timeout unless the operation is an acquisition (see the class comment). The answer, failure or
     * timeout is told to the {@link StoreOutage}; a late answer is not.
     *
     * @param operation the operation's name, as a verb, for the log
     * @param afterLateAnswer {@code null} to cancel the operation when it times out; otherwise it is left to run, and
     *        this runs when it completes (with an item or a failure) after the timeout
     */
    private <T> Uni<T> bounded(String name, Uni<T> operation, Runnable afterLateAnswer) {
        return Uni.createFrom().emitter(emitter -> {
            long sent = outage.sending();
            AtomicBoolean answered = new AtomicBoolean();
            AtomicBoolean timedOut = new AtomicBoolean();
            AtomicReference<Cancellable> running = new AtomicReference<>();
            long timer = vertx.setTimer(timeoutMillis, id -> {
                if (answered.compareAndSet(false, true)) {
                    timedOut.set(true);
                    if (afterLateAnswer == null) {
                        Cancellable call = running.getAndSet(TIMED_OUT);
                        if (call != null) {
                            call.cancel();
                        }
                    }
                    delegate.noAnswer(timeout);
                    StoreTimeoutException noAnswer = new StoreTimeoutException(timeout);
                    outage.failed(name, noAnswer);
                    emitter.fail(noAnswer);
                }
            });
            emitter.onTermination(() -> {
                vertx.cancelTimer(timer);
                if (answered.compareAndSet(false, true)) {
                    Cancellable call = running.getAndSet(TIMED_OUT);
                    if (call != null) {
                        call.cancel();
                    }
                }
            });
            // counted until the store ends it; a late answer's take-back is counted before this one ends
            Uni<T> counted = operation.onSubscription().invoke(inFlight::incrementAndGet)
                    .onCancellation().invoke(inFlight::decrementAndGet);
            Cancellable call = counted.subscribe().with(item -> {
                try {
                    if (answered.compareAndSet(false, true)) {
                        vertx.cancelTimer(timer);
                        outage.answered(sent);
                        emitter.complete(item);
                    } else if (timedOut.get() && afterLateAnswer != null) {
                        afterLateAnswer.run();
                    }
                } finally {
                    inFlight.decrementAndGet();
                }
            }, failure -> {
                try {
                    if (answered.compareAndSet(false, true)) {
                        vertx.cancelTimer(timer);
                        if (isRefusal(failure)) {
                            outage.answered(sent);
                        } else {
                            outage.failed(name, failure);
                        }
                        emitter.fail(failure);
                    } else if (timedOut.get() && afterLateAnswer != null) {
                        afterLateAnswer.run();
                    }
                } finally {
                    inFlight.decrementAndGet();
                }
            });
            if (!running.compareAndSet(null, call)) {
                call.cancel();
            }
        });
    }

    /**
     * @return whether the store has ended every operation sent to it (a release, a take-back, the late answer of an
     *         acquisition), answered or not: a closing registry closes the store only then, or at its deadline, so
     *         closing never drops a take-back on its way
     */
    boolean quiet() {
        return inFlight.get() == 0;
    }

    /**
     * @return whether the failure is the store's answer that it does not do what was asked
     *         ({@link UnsupportedOperationException}, such as the SPI's default {@link LockStore#listHeld}) or that
     *         the request was invalid ({@link IllegalArgumentException}): the store answered, so it is no outage
     */
    private static boolean isRefusal(Throwable failure) {
        return failure instanceof UnsupportedOperationException || failure instanceof IllegalArgumentException;
    }

    /** The store did not answer in time. */
    static final class StoreTimeoutException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        StoreTimeoutException(Duration timeout) {
            super("no answer within " + timeout + " (quarkus.lock.operation-timeout)");
        }
    }
}
