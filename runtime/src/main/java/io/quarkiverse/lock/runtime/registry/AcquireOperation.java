package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.atomic.AtomicInteger;

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
 * earlier acquisition of the same handle, can never complete this one. A hand-over message is taken as the grant only
 * when it is known to be current ({@link Run#onHandedOver}); otherwise the acquisition asks the store. Exactly one of
 * "grant", "give up" (wait ran
 * out, failure) and "cancel" wins, by one compare-and-set. Every way of giving up after the store may have granted
 * (a reply lost, late or failed, a cancellation with an attempt in flight, a grant arriving after the end) sends a
 * {@link TakeBack} for this acquisition's id, so no lock stays held that no handle tracks. It goes once the store
 * answered the last attempt: an attempt is never cancelled, so what a client does to deliver it (a script sent again
 * after {@code NOSCRIPT}, a retried write) happens before the take-back. A grant is recorded in the handle only when it
 * wins, so it never disturbs a hold the handle already has. Written as a loop of fresh subscriptions, not nested
 * operators, so a long wait does not grow the stack; results arrive on the caller's Vert.x context, if any.
 */
final class AcquireOperation extends AbstractUni<Hold> {

    private final LockHandle handle;
    private final long waitNanos;
    private final long leaseMillis;
    private final boolean takeOver;

    /**
     * @param handle the acquiring handle
     * @param waitNanos how long to wait, 0 for one attempt
     * @param leaseMillis the lease of the hold
     * @param takeOver {@code true} for an overriding acquisition: one take-over, whoever holds the lock
     */
    AcquireOperation(LockHandle handle, long waitNanos, long leaseMillis, boolean takeOver) {
        this.handle = handle;
        this.waitNanos = waitNanos;
        this.leaseMillis = leaseMillis;
        this.takeOver = takeOver;
    }

    @Override
    public void subscribe(UniSubscriber<? super Hold> subscriber) {
        Run run = new Run(subscriber, handle.newAcquisitionId(), CallerContext.capture());
        subscriber.onSubscribe(run);
        run.start();
    }

    private final class Run implements UniSubscription {

        private static final int RUNNING = 0;
        private static final int GRANTED = 1;
        private static final int GAVE_UP = 2;

        private final UniSubscriber<? super Hold> downstream;
        private final String owner;
        private final Context context;
        private final AtomicInteger state = new AtomicInteger(RUNNING);
        private volatile Cancellable pause;
        private volatile Waiter waiter;
        private long startNanos;
        private int failedAttempts;
        /** Written under this: when the last attempt the store refused was sent; a later hand-over came after it. */
        private volatile long refusedSentNanos;
        /**
         * Guarded by this: the highest of the refusals' {@link AcquireResult#issuedTokensUpTo()}; a hand-over with a
         * token above it was made after every refusal so far.
         */
        private long refusalsSawTokensUpTo;
        /** Guarded by this: an attempt was submitted; the acquisition gave up with one in flight. */
        private boolean attempted;
        private boolean takeBackOnAnswer;
        /**
         * Guarded by this: an attempt was submitted and its answer has not come yet; a hand-over heard meanwhile.
         * A hand-over heard then is decided once the answer is in (see {@link #onHandedOver}).
         */
        private boolean awaitingAnswer;
        /** Guarded by this: the highest token of the hand-overs heard while an attempt was in flight, 0 if none. */
        private long handOverHeardToken;

        Run(UniSubscriber<? super Hold> downstream, String owner, Context context) {
            this.downstream = downstream;
            this.owner = owner;
            this.context = context;
        }

        void start() {
            if (!takeOver && waitNanos > 0 && !handle.isHeldLocally()) {
                startNanos = System.nanoTime();
                Waiter joined;
                synchronized (this) {
                    if (state.get() != RUNNING) {
                        return;
                    }
                    joined = handle.states().join(handle.key, owner, this::onHandedOver);
                    waiter = joined;
                }
                if (!joined.isHead()) {
                    pauseThenAttempt(-1, waitNanos);
                    return;
                }
            }
            attempt();
        }

        private boolean waits() {
            return waiter != null;
        }

        /** Submits one attempt, unless the acquisition ended or an attempt is in flight. */
        private void attempt() {
            if (handle.services().isClosed()) {
                onFailure(new IllegalStateException("the application is shutting down"));
                return;
            }
            synchronized (this) {
                if (state.get() != RUNNING || awaitingAnswer) {
                    return;
                }
                attempted = true;
                awaitingAnswer = true;
            }
            long sentNanos = System.nanoTime();
            try {
                Uni<AcquireResult> call = takeOver ? handle.boundedStore().takeOver(handle.key, owner, leaseMillis)
                        : handle.boundedStore().tryAcquire(handle.key, owner, leaseMillis, waits());
                call.subscribe().with(result -> onResult(result, sentNanos), this::onAttemptFailure);
            } catch (RuntimeException e) {
                onAttemptFailure(e);
            }
        }

        /**
         * The store answered the attempt in flight (or it failed or timed out), with {@code result} if it answered. A
         * refusal is recorded in the same step, so a hand-over heard from then on is judged against it. If the
         * acquisition gave up meanwhile, its take-back goes now, after everything the attempt may have done in the
         * store.
         *
         * @return the highest token of the hand-overs heard while the attempt was in flight (0 if none), or -1 if the
         *         acquisition gave up meanwhile and the answer was dealt with by its take-back
         */
        private long answered(AcquireResult result, long sentNanos) {
            long heard;
            boolean takeBackNow;
            synchronized (this) {
                heard = handOverHeardToken;
                takeBackNow = takeBackOnAnswer;
                awaitingAnswer = false;
                handOverHeardToken = 0;
                takeBackOnAnswer = false;
                if (result != null && !result.acquired()) {
                    refusedSentNanos = sentNanos;
                    refusalsSawTokensUpTo = Math.max(refusalsSawTokensUpTo, result.issuedTokensUpTo());
                }
            }
            if (takeBackNow) {
                takeBack().subscribe().with(ignored -> {
                });
                return -1;
            }
            return heard;
        }

        private void onAttemptFailure(Throwable failure) {
            if (answered(null, 0) >= 0) {
                onFailure(failure);
            }
        }

        private void onResult(AcquireResult result, long sentNanos) {
            long handOverHeardMeanwhile = answered(result, sentNanos);
            if (handOverHeardMeanwhile < 0) {
                return;
            }
            if (result.acquired()) {
                // A grant revealed by this attempt may be a hand-over made after the previous refusal was answered.
                long refusedSent = refusedSentNanos;
                onGranted(result.token(), refusedSent != 0 ? refusedSent : sentNanos);
                return;
            }
            if (handOverHeardMeanwhile > 0 && state.get() == RUNNING) {
                // A hand-over made after this refusal is the grant; an earlier one is stale, and the store tells.
                onHandedOver(handOverHeardMeanwhile);
                return;
            }
            long remaining = waits() ? waitNanos - (System.nanoTime() - startNanos) : 0;
            if (remaining <= 0) {
                if (state.compareAndSet(RUNNING, GAVE_UP)) {
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
            pause = handle.waitStrategy()
                    .pause(waiter, failedAttempts, holderRemainingMillis, remainingNanos)
                    .subscribe().with(ignored -> attempt(), this::onFailure);
            if (state.get() != RUNNING) {
                pause.cancel();
            }
        }

        /**
         * A release handed the lock to this acquisition (the message names its owner id). The message is the grant,
         * with its token, when it is known to be current: no attempt is on its way, and the token is above what every
         * refusal so far saw issued, so the hand-over came after all of them. Only a refusal puts this acquisition in
         * line, so no later hand-over to it can have followed, and since then the lock has been this acquisition's,
         * as after any grant (a take-over, a forced release or the lease's end may end a hold at any time). Its lease
         * counts from when the last refused attempt was sent, before the hand-over; a message that comes when half
         * the lease is gone is not taken.
         * <p>
         * Otherwise the acquisition asks the store at once, which answers a lock handed to this acquisition with its
         * current token: the message may be late, and the lock may have changed hands and come back to this
         * acquisition under another token since (a take-over, then a release to this waiter, which a later refusal
         * had put back in line). Heard while an attempt is in flight, the message is judged once that attempt is
         * answered (see {@link #awaitingAnswer}), since the attempt may reach the store after the hand-over.
         */
        private void onHandedOver(long token) {
            boolean current;
            long refusedSent;
            synchronized (this) {
                if (awaitingAnswer) {
                    handOverHeardToken = Math.max(handOverHeardToken, token);
                    return;
                }
                refusedSent = refusedSentNanos;
                current = refusedSent != 0 && token > refusalsSawTokensUpTo && leaseLeft(refusedSent)
                        && state.compareAndSet(RUNNING, GRANTED);
            }
            if (current) {
                granted(token, refusedSent);
                return;
            }
            Cancellable paused = pause;
            if (paused != null) {
                paused.cancel();
            }
            attempt();
        }

        /** Whether at least half the lease of a grant made after {@code sinceNanos} is left. */
        private boolean leaseLeft(long sinceNanos) {
            return leaseMillis == LockStore.NO_EXPIRY || System.nanoTime() - sinceNanos < leaseMillis * 500_000;
        }

        /**
         * Records the grant unless the acquisition gave up after the answer came; that give-up sends its own take-back,
         * after this answer.
         */
        private void onGranted(long token, long sentNanos) {
            if (state.compareAndSet(RUNNING, GRANTED)) {
                granted(token, sentNanos);
            }
        }

        private void granted(long token, long sentNanos) {
            finish();
            deliver(handle.onGranted(owner, token, leaseMillis, sentNanos));
        }

        private void onFailure(Throwable failure) {
            if (state.compareAndSet(RUNNING, GAVE_UP)) {
                finish();
                takeBackOnceAnswered();
                deliverFailure(handle.storeFailure(takeOver ? "take over" : "acquire", failure));
            }
        }

        @Override
        public void cancel() {
            if (state.compareAndSet(RUNNING, GAVE_UP)) {
                finish();
                takeBackOnceAnswered();
            }
        }

        /** Sends the take-back now if an attempt was made, or, if one is in flight, once it is answered. */
        private void takeBackOnceAnswered() {
            boolean now;
            synchronized (this) {
                if (awaitingAnswer) {
                    takeBackOnAnswer = true;
                    return;
                }
                now = attempted;
            }
            if (now) {
                takeBack().subscribe().with(ignored -> {
                });
            }
        }

        private Uni<Boolean> takeBack() {
            return TakeBack.send(handle.services(), handle.key, owner, leaseMillis);
        }

        private void finish() {
            Cancellable current = pause;
            if (current != null) {
                current.cancel();
            }
            Waiter joined;
            synchronized (this) {
                joined = waiter;
            }
            if (joined != null) {
                handle.states().leave(joined);
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
