package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.atomic.AtomicBoolean;

import io.quarkiverse.lock.runtime.observe.LockTracer.AcquireSpan;
import io.quarkiverse.lock.runtime.waiting.Waiter;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.core.Context;

/**
 * One acquisition by a handle: attempts, and pauses between attempts until the wait runs out. Emits the {@link Hold}
 * it got, or {@code null} when the wait ran out first. A waiting acquisition queues behind the earlier waiters of this
 * JVM on the same key and attempts only when first in line, or one last time when its wait runs out. An overriding
 * acquisition makes one take-over instead.
 * <p>
 * Each subscription is one acquisition with an owner id of its own ({@link LockHandle#newAcquisitionId()}): the store
 * grants, hands over and takes back by that id, so a late or repeated reply, or a hand-over message meant for an
 * earlier acquisition of the same handle, can never complete this one. A hand-over message is the grant only when it
 * is known to be current ({@link AttemptLedger#handOver}); otherwise the acquisition asks the store. Exactly one of
 * "grant", "give up" (wait ran out, failure) and "cancel" wins ({@link AttemptLedger}).
 * <p>
 * Every way of giving up after the store may have granted (a reply lost, late or failed, a cancellation with an
 * attempt in flight, a grant arriving after the end) sends a {@link TakeBack} for this acquisition's id, so no lock
 * stays held that no handle tracks. It goes once the store answered the last attempt: an attempt is never cancelled,
 * so what a client does to deliver it (a script sent again after {@code NOSCRIPT}, a retried write) happens before the
 * take-back. A grant is recorded in the handle only when it wins, so it never disturbs a hold the handle already has.
 * Written as a loop of fresh subscriptions, not nested operators, so a long wait does not grow the stack; results
 * arrive on the caller's Vert.x context, if any.
 */
final class AcquireOperation extends AbstractUni<Hold> {

    private final LockHandle handle;
    private final LockServices services;
    private final String key;
    private final long waitNanos;
    private final long leaseMillis;
    private final boolean overriding;
    private final Hold over;
    private final AcquireSpan span;

    /**
     * @param handle the acquiring handle
     * @param waitNanos how long to wait, 0 for one attempt
     * @param leaseMillis the lease of the hold
     * @param overriding {@code true} for one take-over, whoever holds the lock
     * @param span the acquisition's span, told of its place in the local line
     */
    AcquireOperation(LockHandle handle, long waitNanos, long leaseMillis, boolean overriding, AcquireSpan span) {
        this(handle, waitNanos, leaseMillis, overriding, null, span);
    }

    /**
     * A reentrant handle's acquisition afresh, once its hold is over (found lost, or ending as a release took its
     * last entry): it waits in line as a handle that holds nothing does, although the hold may not be dropped yet.
     *
     * @param over the handle's hold that is over
     */
    static AcquireOperation afterHold(LockHandle handle, Hold over, long waitNanos, long leaseMillis,
            AcquireSpan span) {
        return new AcquireOperation(handle, waitNanos, leaseMillis, false, over, span);
    }

    private AcquireOperation(LockHandle handle, long waitNanos, long leaseMillis, boolean overriding, Hold over,
            AcquireSpan span) {
        this.handle = handle;
        this.services = handle.services();
        this.key = handle.getLockKey();
        this.waitNanos = waitNanos;
        this.leaseMillis = leaseMillis;
        this.overriding = overriding;
        this.over = over;
        this.span = span;
    }

    @Override
    public void subscribe(UniSubscriber<? super Hold> subscriber) {
        Run run = new Run(subscriber, handle.newAcquisitionId(), CallerContext.capture());
        subscriber.onSubscribe(run);
        run.start();
    }

    private final class Run implements UniSubscription, LockServices.Unsettled {

        private final UniSubscriber<? super Hold> downstream;
        private final String owner;
        private final Context context;
        private final AttemptLedger ledger = new AttemptLedger(leaseMillis);
        private volatile Cancellable pause;
        /** Whether this acquisition counts among its registry's waiting ones: from joining its line to leaving it. */
        private final AtomicBoolean countedWaiting = new AtomicBoolean();
        private long startNanos;
        private int failedAttempts;

        Run(UniSubscriber<? super Hold> downstream, String owner, Context context) {
            this.downstream = downstream;
            this.owner = owner;
            this.context = context;
        }

        void start() {
            if (!overriding && waitNanos > 0 && !handle.isHeldLocallyBesides(over)) {
                startNanos = System.nanoTime();
                Waiter joined = ledger.join(() -> {
                    Waiter waiter = services.states().join(key, owner, this::onHandedOver);
                    if (countedWaiting.compareAndSet(false, true)) {
                        services.unsettled(this);
                    }
                    return waiter;
                });
                if (joined == null) {
                    return;
                }
                if (services.isClosed()) {
                    // the registry began closing as this acquisition joined its line, and may have missed it
                    attempt();
                    return;
                }
                span.queued(joined.placeAtJoin());
                if (!joined.isHead()) {
                    pauseThenAttempt(-1, waitNanos);
                    return;
                }
            }
            attempt();
        }

        private boolean waits() {
            return ledger.waiter() != null;
        }

        /** The registry closes: the waiter stops its pause and tries now, which fails, and withdraws. */
        @Override
        public void hurry() {
            Cancellable paused = pause;
            if (paused != null) {
                paused.cancel();
            }
            attempt();
        }

        /** Submits one attempt, unless the acquisition ended or an attempt is in flight. */
        private void attempt() {
            if (services.isClosed()) {
                onFailure(new IllegalStateException("the application is shutting down"));
                return;
            }
            if (!ledger.startAttempt()) {
                return;
            }
            long sentNanos = System.nanoTime();
            try {
                LockStore store = services.boundedStore();
                Uni<AcquireResult> call = overriding ? store.takeOver(key, owner, leaseMillis)
                        : store.tryAcquire(key, owner, leaseMillis, waits());
                call.subscribe().with(result -> onResult(result, sentNanos), this::onAttemptFailure);
            } catch (RuntimeException e) {
                onAttemptFailure(e);
            }
        }

        /**
         * @return the highest token of the hand-overs heard while the attempt was in flight (0 if none), or
         *         {@link AttemptLedger#WITHDRAWN} if the acquisition gave up meanwhile: its take-back goes now, after
         *         everything the attempt may have done in the store
         */
        private long answered(AcquireResult result, long sentNanos) {
            long heard = ledger.answered(result, sentNanos);
            if (heard == AttemptLedger.WITHDRAWN) {
                takeBack().subscribe().with(ignored -> {
                });
            }
            return heard;
        }

        private void onAttemptFailure(Throwable failure) {
            if (answered(null, 0) != AttemptLedger.WITHDRAWN) {
                onFailure(failure);
            }
        }

        private void onResult(AcquireResult result, long sentNanos) {
            long handOverHeardMeanwhile = answered(result, sentNanos);
            if (handOverHeardMeanwhile == AttemptLedger.WITHDRAWN) {
                return;
            }
            if (result.acquired()) {
                if (ledger.grant()) {
                    granted(result.token(), ledger.leaseSinceNanos(sentNanos), sentNanos);
                }
                return;
            }
            if (handOverHeardMeanwhile > 0 && ledger.isRunning()) {
                // A hand-over made after this refusal is the grant; an earlier one is stale, and the store tells.
                onHandedOver(handOverHeardMeanwhile);
                return;
            }
            long remaining = waits() ? waitNanos - (System.nanoTime() - startNanos) : 0;
            if (remaining <= 0) {
                if (ledger.giveUpAfterAnswer()) {
                    finish();
                    if (waits()) {
                        takeBack().subscribe().with(ignored -> deliver(null));
                    } else {
                        deliver(null);
                    }
                }
                return;
            }
            failedAttempts++;
            pauseThenAttempt(result.holderRemainingMillis(), remaining);
        }

        private void pauseThenAttempt(long holderRemainingMillis, long remainingNanos) {
            pause = services.waitStrategy()
                    .pause(ledger.waiter(), failedAttempts, holderRemainingMillis, remainingNanos)
                    .subscribe().with(ignored -> attempt(), this::onFailure);
            if (!ledger.isRunning()) {
                pause.cancel();
            }
        }

        /**
         * A release handed the lock to this acquisition (the message names its owner id). Since only a refusal puts
         * this acquisition in line, a current message is the grant ({@link AttemptLedger#handOver}), and the lease
         * counts from when the last refused attempt was sent; a message that comes when half the lease is gone is not
         * taken.
         * <p>
         * Otherwise the acquisition asks the store at once, which answers a lock handed to this acquisition with its
         * current token: the message may be late, and the lock may have changed hands and come back to this
         * acquisition under another token since (a take-over, then a release to this waiter, which a later refusal
         * had put back in line). Heard while an attempt is in flight, the message is judged once that attempt is
         * answered, since the attempt may reach the store after the hand-over.
         */
        private void onHandedOver(long token) {
            switch (ledger.handOver(token)) {
                case GRANTED -> granted(token, ledger.leaseSinceNanos(0), System.nanoTime());
                case ASK_STORE -> {
                    Cancellable paused = pause;
                    if (paused != null) {
                        paused.cancel();
                    }
                    attempt();
                }
                case HEARD_MEANWHILE, ENDED -> {
                }
            }
        }

        /**
         * Records the grant in the handle and delivers its hold; a stale grant (the handle has a later one) is taken
         * back and delivered as not acquired.
         */
        /**
         * @param leaseSinceNanos when the lease began at the latest: the send time of the attempt that was granted,
         *        or of the last refused one for a hand-over
         * @param askedNanos when the grant was asked for: the granted attempt's send time, or when the hand-over
         *        was heard
         */
        private void granted(long token, long leaseSinceNanos, long askedNanos) {
            if (services.isClosed()) {
                // granted while the registry closes: nobody could release it once the store closed
                Uni<Boolean> takeBack = takeBack();
                finish();
                takeBack.subscribe().with(ignored -> deliverFailure(handle.storeFailure(
                        overriding ? "take over" : "acquire",
                        new IllegalStateException("the application is shutting down"))));
                return;
            }
            finish();
            Hold hold = handle.onGranted(owner, token, leaseMillis, leaseSinceNanos, askedNanos);
            if (hold == null) {
                takeBack().subscribe().with(ignored -> deliver(null));
            } else {
                deliver(hold);
            }
        }

        private void onFailure(Throwable failure) {
            if (giveUp()) {
                deliverFailure(handle.storeFailure(overriding ? "take over" : "acquire", failure));
            }
        }

        @Override
        public void cancel() {
            giveUp();
        }

        /**
         * Ends the acquisition unless it ended, and takes back what it asked for: now if an attempt was answered, or
         * once the attempt in flight is.
         *
         * @return {@code true} if this call ended it
         */
        private boolean giveUp() {
            AttemptLedger.GiveUp left = ledger.giveUp();
            if (left == AttemptLedger.GiveUp.ENDED_ALREADY) {
                return false;
            }
            // made before the line is left: a closing registry never sees both at rest while it is on its way
            Uni<Boolean> takeBack = left == AttemptLedger.GiveUp.WITHDRAW_NOW ? takeBack() : null;
            finish();
            if (takeBack != null) {
                takeBack.subscribe().with(ignored -> {
                });
            }
            return true;
        }

        private Uni<Boolean> takeBack() {
            return TakeBack.send(services, key, owner, leaseMillis);
        }

        private void finish() {
            Cancellable current = pause;
            if (current != null) {
                current.cancel();
            }
            Waiter joined = ledger.waiter();
            if (joined != null) {
                services.states().leave(joined);
            }
            if (countedWaiting.compareAndSet(true, false)) {
                services.settled(this);
            }
        }

        private void deliver(Hold hold) {
            CallerContext.deliver(context, () -> downstream.onItem(hold));
        }

        private void deliverFailure(Throwable failure) {
            CallerContext.deliver(context, () -> downstream.onFailure(failure));
        }
    }
}
