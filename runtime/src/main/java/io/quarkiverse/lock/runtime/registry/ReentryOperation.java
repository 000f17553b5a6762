package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.atomic.AtomicInteger;

import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.core.Context;

/**
 * A reentrant handle's acquisition while it holds the lock: the store confirms the hold is still this acquisition's
 * (restarting its lease), then the hold is entered once more and emitted. A hold found lost is dropped and the lock
 * acquired afresh; a hold found ending (a release took its last entry meanwhile) is left to that release, which ends it
 * in the store, and the lock acquired afresh. An entry is taken only when the re-entry wins against cancellation (one
 * compare-and-set); a
 * cancelled re-entry takes nothing, so it can never free the hold of the enclosing section.
 */
final class ReentryOperation extends AbstractUni<Hold> {

    private final LockHandle handle;
    private final Hold current;
    private final long waitNanos;
    private final long leaseMillis;

    /**
     * @param handle the reentrant handle
     * @param current the hold it has
     * @param waitNanos how long a fresh acquisition may wait if the hold was lost
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
        private volatile Cancellable renewal;
        private volatile UniSubscription fresh;

        Run(UniSubscriber<? super Hold> downstream, Context context) {
            this.downstream = downstream;
            this.context = context;
        }

        void start() {
            renewal = handle.services().boundedStore().renew(handle.getLockKey(), current.owner(), current.leaseMillis())
                    .subscribe()
                    .with(this::onRenewed, this::onFailure);
        }

        private void onRenewed(boolean stillHeld) {
            if (state.get() != RUNNING) {
                return;
            }
            if (!stillHeld) {
                handle.dropLostHold(current);
                acquireAfresh();
                return;
            }
            if (!current.enter()) {
                // The hold is ending, not lost: the release that took its last entry ends it in the store.
                acquireAfresh();
                return;
            }
            if (state.compareAndSet(RUNNING, DONE)) {
                CallerContext.deliver(context, () -> downstream.onItem(current));
            } else {
                HoldRelease.releaseQuietly(handle, current, 0, "its re-entry was cancelled");
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
                UniSubscription acquisition = fresh;
                if (acquisition != null) {
                    acquisition.cancel();
                }
            }
        }
    }
}
