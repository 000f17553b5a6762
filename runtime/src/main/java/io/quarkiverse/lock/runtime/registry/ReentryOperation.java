package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.core.Context;

/**
 * A reentrant handle's acquisition while it holds the lock: the hold is entered once more, then the store confirms it
 * is still this acquisition's (restarting its lease), and the hold is emitted. Entering first means no release can end
 * the hold while the store is asked: a release that took the last entry before finds it cannot be entered, so the
 * lock is acquired afresh, and a renewal never lands after the release that ended the hold (which would restore the
 * lease of a hold nobody tracks). A hold the store no longer has is dropped and the lock acquired afresh. The entry
 * taken is given back exactly once (one compare-and-set) if the re-entry does not emit it: cancelled, lost, or failed;
 * a give-back that is the hold's last entry ends it as any last release does.
 */
final class ReentryOperation extends AbstractUni<Hold> {

    private final LockHandle handle;
    private final Hold current;
    private final long waitNanos;
    private final long leaseMillis;

    /**
     * @param handle the reentrant handle
     * @param current the hold it has
     * @param waitNanos how long a fresh acquisition may wait if the hold is over
     * @param leaseMillis the lease of a fresh acquisition
     */
    ReentryOperation(LockHandle handle, Hold current, long waitNanos, long leaseMillis) {
        this.handle = handle;
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
        /** This re-entry holds an entry of the hold that it has not emitted nor given back. */
        private final AtomicBoolean entered = new AtomicBoolean();
        private volatile Cancellable renewal;
        private volatile UniSubscription fresh;

        Run(UniSubscriber<? super Hold> downstream, Context context) {
            this.downstream = downstream;
            this.context = context;
        }

        void start() {
            if (!current.enter()) {
                // The hold is ending: the release that took its last entry ends it in the store.
                acquireAfresh();
                return;
            }
            entered.set(true);
            if (state.get() != RUNNING) {
                giveBackEntry("its re-entry was cancelled");
                return;
            }
            renewal = handle.services().boundedStore().renew(handle.getLockKey(), current.owner(), current.leaseMillis())
                    .subscribe()
                    .with(this::onRenewed, this::onRenewalFailed);
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
            if (state.compareAndSet(RUNNING, DONE) && entered.compareAndSet(true, false)) {
                CallerContext.deliver(context, () -> downstream.onItem(current));
            }
        }

        private void onRenewalFailed(Throwable failure) {
            giveBackEntry("its renewal failed");
            onFailure(failure);
        }

        /** Gives back the entry this re-entry took, unless it emitted or gave it back already. */
        private void giveBackEntry(String reason) {
            if (entered.compareAndSet(true, false)) {
                HoldRelease.releaseQuietly(handle, current, handle.holdAtLeastMillis(), reason);
            }
        }

        private void acquireAfresh() {
            AcquireOperation.afterHold(handle, current, waitNanos, leaseMillis).subscribe().withSubscriber(this);
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
                HoldRelease.releaseQuietly(handle, hold, 0, "its acquisition was cancelled");
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
                Cancellable pending = renewal;
                if (pending != null) {
                    pending.cancel();
                }
                giveBackEntry("its re-entry was cancelled");
                UniSubscription acquisition = fresh;
                if (acquisition != null) {
                    acquisition.cancel();
                }
            }
        }
    }
}
