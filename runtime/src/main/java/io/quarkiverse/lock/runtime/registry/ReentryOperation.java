package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.atomic.AtomicInteger;

import io.quarkiverse.lock.runtime.observe.LockTracer.AcquireSpan;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.core.Context;

/**
 * A reentrant handle's acquisition while it holds the lock: the hold is entered once more, then the store confirms it
 * is still this acquisition's (restarting its lease), and the hold is emitted. Entering first means no release can end
 * the hold while the store is asked: a release that took the last entry before finds it cannot be entered, so the
 * lock is acquired afresh, and a renewal never lands after the release that ended the hold (which would restore the
 * lease of a hold nobody tracks). A hold the store no longer has is dropped and the lock acquired afresh.
 * <p>
 * Once the hold is entered, the entry is emitted or given back only when the renewal has answered (or failed to be
 * sent), never before: a cancellation meanwhile only marks the re-entry cancelled, since a give-back that ended the
 * hold in the store ahead of the renewal would again let the renewal restore the lease. The renewal goes through the
 * hold's line of lease commands ({@link LeaseLine}), after the renewals and extensions asked for before it, each
 * bounded by the operation timeout; a give-back that is the hold's last entry keeps the minimum hold as any last
 * release does.
 * <p>
 * The store sets the longer of the hold's lease, as the store last confirmed it when the renewal is sent, and the one
 * this acquisition asks for ({@link Hold#renewForReentry}): a re-entry answering {@code true} holds the lock at least
 * as long as it asked, as a fresh acquisition would, and never shortens the lease an extension set.
 */
final class ReentryOperation extends AbstractUni<Hold> {

    private final LockHandle handle;
    private final Hold current;
    private final long waitNanos;
    private final long leaseMillis;
    private final AcquireSpan span;

    /**
     * @param handle the reentrant handle
     * @param current the hold it has
     * @param waitNanos how long a fresh acquisition may wait if the hold is over
     * @param leaseMillis the lease this acquisition asks for, set again in the store if longer than the hold's, and
     *        the lease of a fresh acquisition
     * @param span the acquisition's span, told of a fresh acquisition's place in line
     */
    ReentryOperation(LockHandle handle, Hold current, long waitNanos, long leaseMillis, AcquireSpan span) {
        this.handle = handle;
        this.span = span;
        this.current = current;
        this.waitNanos = waitNanos;
        this.leaseMillis = leaseMillis;
    }

    @Override
    public void subscribe(UniSubscriber<? super Hold> subscriber) {
        Run run = new Run(subscriber, CallerContext.capture());
        subscriber.onSubscribe(run);
        run.start();
    }

    private final class Run implements UniSubscription, UniSubscriber<Hold> {

        private static final int RUNNING = 0;
        private static final int DONE = 1;

        private final UniSubscriber<? super Hold> downstream;
        private final Context context;
        private final AtomicInteger state = new AtomicInteger(RUNNING);
        private volatile UniSubscription fresh;

        Run(UniSubscriber<? super Hold> downstream, Context context) {
            this.downstream = downstream;
            this.context = context;
        }

        void start() {
            if (state.get() != RUNNING) {
                return;
            }
            if (!current.enter()) {
                // The hold is ending: the release that took its last entry ends it in the store.
                acquireAfresh();
                return;
            }
            Uni<Boolean> renewal;
            try {
                renewal = current.renewForReentry(leaseMillis);
            } catch (RuntimeException e) {
                onRenewalFailed(e);
                return;
            }
            renewal.subscribe().with(this::onRenewed, this::onRenewalFailed);
        }

        private void onRenewed(boolean stillHeld) {
            if (!stillHeld) {
                handle.dropLostHold(current);
                giveBackEntry("its hold was found lost");
                if (state.get() == RUNNING) {
                    acquireAfresh();
                }
                return;
            }
            if (state.compareAndSet(RUNNING, DONE)) {
                CallerContext.deliver(context, () -> downstream.onItem(current));
            } else {
                giveBackEntry("its re-entry was cancelled");
            }
        }

        private void onRenewalFailed(Throwable failure) {
            giveBackEntry("its renewal failed");
            onFailure(failure);
        }

        /** Gives back the entry this re-entry took and does not emit; called once, after the renewal's answer. */
        private void giveBackEntry(String reason) {
            HoldRelease.releaseQuietly(handle, current, handle.holdAtLeastMillis(), reason, null);
        }

        private void acquireAfresh() {
            AcquireOperation.afterHold(handle, current, waitNanos, leaseMillis, span).subscribe().withSubscriber(this);
        }

        @Override
        public void onSubscribe(UniSubscription subscription) {
            fresh = subscription;
            if (state.get() != RUNNING) {
                subscription.cancel();
            }
        }

        /** The fresh acquisition's result. */
        @Override
        public void onItem(Hold hold) {
            if (state.compareAndSet(RUNNING, DONE)) {
                CallerContext.deliver(context, () -> downstream.onItem(hold));
            } else if (hold != null) {
                HoldRelease.giveBackUnused(handle, hold, "its acquisition was cancelled");
            }
        }

        @Override
        public void onFailure(Throwable failure) {
            if (state.compareAndSet(RUNNING, DONE)) {
                CallerContext.deliver(context, () -> downstream.onFailure(handle.storeFailure("acquire", failure)));
            }
        }

        @Override
        public void cancel() {
            if (state.compareAndSet(RUNNING, DONE)) {
                UniSubscription acquisition = fresh;
                if (acquisition != null) {
                    acquisition.cancel();
                }
            }
        }
    }
}
