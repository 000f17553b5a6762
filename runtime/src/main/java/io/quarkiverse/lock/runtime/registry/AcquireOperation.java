package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.quarkiverse.lock.runtime.local.Waiter;
import io.quarkiverse.lock.runtime.store.AcquireResult;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;

/**
 * One acquisition by a handle: attempts, and pauses between attempts until the wait runs out. Emits the fencing token
 * of the new hold, or 0 when the wait ran out first. A waiting acquisition queues behind the earlier waiters of this
 * JVM on the same key and attempts only when first in line, or one last time when its wait runs out.
 * <p>
 * It is written as a loop of fresh subscriptions rather than nested operators, so a long wait does not grow the stack,
 * and it never cancels a store call in flight: a grant that arrives after the subscriber cancelled is released at
 * once. Exactly one of "deliver the grant" and "cancel" wins, by one compare-and-set, so a cancelled acquisition
 * never leaves the lock held.
 */
final class AcquireOperation extends AbstractUni<Long> {

    private final LockHandle handle;
    private final long waitNanos;
    private final long leaseMillis;
    private final AtomicBoolean abandoned;

    /**
     * @param handle the acquiring handle
     * @param waitNanos how long to wait, 0 for one attempt
     * @param leaseMillis the lease of the hold
     * @param abandoned set by an enclosing operation that was cancelled after this one may have delivered its grant;
     *        a grant that sees it set is released. May be {@code null}.
     */
    AcquireOperation(LockHandle handle, long waitNanos, long leaseMillis, AtomicBoolean abandoned) {
        this.handle = handle;
        this.waitNanos = waitNanos;
        this.leaseMillis = leaseMillis;
        this.abandoned = abandoned;
    }

    @Override
    public void subscribe(UniSubscriber<? super Long> subscriber) {
        Run run = new Run(subscriber);
        subscriber.onSubscribe(run);
        run.start();
    }

    private final class Run implements UniSubscription {

        private static final int RUNNING = 0;
        private static final int DONE = 1;
        private static final int CANCELLED = 2;

        private final UniSubscriber<? super Long> downstream;
        private final AtomicInteger state = new AtomicInteger(RUNNING);
        private volatile Cancellable pause;
        private Waiter waiter;
        private long startNanos;
        private int failedAttempts;
        private volatile boolean attempted;
        /** The token of the grant this run received, from its attempt or from a hand-over; guarded by this. */
        private long grantedToken;

        Run(UniSubscriber<? super Long> downstream) {
            this.downstream = downstream;
        }

        void start() {
            if (waitNanos > 0 && !handle.isHeldLocally()) {
                startNanos = System.nanoTime();
                waiter = handle.registry.states.join(handle.key, handle.owner, this::onHandedOver);
                if (!waiter.isHead()) {
                    pauseThenAttempt(-1, waitNanos);
                    return;
                }
            }
            attempt();
        }

        private boolean waits() {
            return waiter != null;
        }

        private void attempt() {
            if (state.get() != RUNNING) {
                return;
            }
            try {
                attempted = true;
                handle.registry.store.tryAcquire(handle.key, handle.owner, leaseMillis, waits())
                        .subscribe().with(this::onResult, this::onFailure);
            } catch (RuntimeException e) {
                onFailure(e);
            }
        }

        private void onResult(AcquireResult result) {
            if (result.acquired()) {
                onGranted(result.token());
                return;
            }
            long remaining = waits() ? waitNanos - (System.nanoTime() - startNanos) : 0;
            if (remaining <= 0) {
                if (state.compareAndSet(RUNNING, DONE)) {
                    finish();
                    leaveLine(() -> downstream.onItem(0L));
                }
                return;
            }
            failedAttempts++;
            pauseThenAttempt(result.holderRemainingMillis(), remaining);
        }

        private void pauseThenAttempt(long holderRemainingMillis, long remainingNanos) {
            pause = handle.registry.waitStrategy
                    .pause(waiter, failedAttempts, holderRemainingMillis, remainingNanos)
                    .subscribe().with(ignored -> attempt(), this::onFailure);
            if (state.get() != RUNNING) {
                pause.cancel();
            }
        }

        /** A release handed the lock to this waiter: it holds it without asking the store again. */
        private void onHandedOver(long token) {
            onGranted(token);
        }

        private void onGranted(long token) {
            synchronized (this) {
                if (token == grantedToken) {
                    return;
                }
                grantedToken = token;
            }
            handle.onGranted(token, leaseMillis);
            if (!state.compareAndSet(RUNNING, DONE)) {
                handle.releaseQuietly(token, "its acquisition was cancelled");
                return;
            }
            finish();
            if (abandoned != null && abandoned.get()) {
                handle.releaseQuietly(token, "its operation was cancelled");
            }
            downstream.onItem(token);
        }

        private void onFailure(Throwable failure) {
            if (state.compareAndSet(RUNNING, DONE)) {
                finish();
                leaveLine(() -> {
                });
                downstream.onFailure(handle.storeFailure("acquire", failure));
            }
        }

        @Override
        public void cancel() {
            if (state.compareAndSet(RUNNING, CANCELLED)) {
                finish();
                leaveLine(() -> {
                });
            }
        }

        /**
         * A waiter that gives up leaves the store's line, so the next one need not wait for its place to lapse.
         *
         * @param then runs once the store answered (or failed to: the place then lapses), so that a caller told
         *        "not acquired" finds the line without it
         */
        private void leaveLine(Runnable then) {
            if (waits() && attempted) {
                handle.registry.store.takeBack(handle.key, handle.owner).subscribe().with(ignored -> then.run(),
                        ignored -> then.run());
            } else {
                then.run();
            }
        }

        private void finish() {
            Cancellable current = pause;
            if (current != null) {
                current.cancel();
            }
            if (waiter != null) {
                handle.registry.states.leave(waiter);
            }
        }
    }
}
