package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockedSection;
import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.runtime.observe.LockTracer;
import io.quarkiverse.lock.runtime.observe.LockTracer.AcquireSpan;
import io.quarkiverse.lock.runtime.observe.LockTracer.SectionSpan;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.operators.AbstractUni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;

/**
 * An acquisition whose hold is released exactly once by whoever ends its use first: the caller after its work, or
 * a cancellation. A cancellation that reaches it after the hold arrived (a grant racing the cancel, or an operator
 * that dropped the hold because it was cancelled at that moment) releases the hold, so a cancelled caller never leaves
 * the lock held, whatever operators stand between it and the acquisition; and the caller's own release and the
 * cancellation's cannot both leave an entry of a reentrant hold. It also tells the registry's observer the outcome.
 * <p>
 * The work done under the hold is started through {@link #guard}: a cancellation stops it before giving the hold back,
 * and work not started yet never starts. Without it, a cancellation that reaches an execution between the hold's
 * emission and the action's subscription reaching {@code flatMap} (which cancels only an inner subscription it
 * already has) would release the hold and leave the action to run, entirely, without the lock.
 * <p>
 * Each subscription is one acquisition with a span of its own ({@link LockTracer}), a child of the guarded section's
 * span when it acquires for one; a cancellation ends the section's span once the release it made is done.
 */
final class ClaimedAcquisition extends AbstractUni<Hold> implements BlockingLockView.Claim {

    private final LockHandle handle;
    private final long waitNanos;
    private final long leaseMillis;
    private final boolean forSection;
    /** The acquisition, when made elsewhere; {@code null}: made from the handle at each subscription. */
    private final Uni<Hold> made;
    /** The span of the guarded section, started with the acquisition; {@link SectionSpan#NONE} if none. */
    private volatile SectionSpan section = SectionSpan.NONE;
    private final AtomicBoolean released = new AtomicBoolean();
    private volatile Hold hold;
    /** A cancellation reached this acquisition after the hold arrived. */
    private volatile boolean cancelled;
    /** Stops the work started under the hold, once it subscribed. */
    private volatile Runnable stopWork;

    /**
     * @param waitNanos how long to wait, 0 for one attempt
     * @param leaseMillis the lease of the hold
     * @param forSection whether this acquisition is for a guarded section, whose span it starts when subscribed
     */
    ClaimedAcquisition(LockHandle handle, long waitNanos, long leaseMillis, boolean forSection) {
        this.handle = handle;
        this.waitNanos = waitNanos;
        this.leaseMillis = leaseMillis;
        this.forSection = forSection;
        this.made = null;
    }

    /**
     * A plain acquisition made elsewhere.
     *
     * @param acquisition emits the hold acquired or entered again, or {@code null} when not acquired
     */
    ClaimedAcquisition(LockHandle handle, Uni<Hold> acquisition) {
        this.handle = handle;
        this.waitNanos = 0;
        this.leaseMillis = 0;
        this.forSection = false;
        this.made = acquisition;
    }

    /**
     * @return the span of the guarded section this acquisition is for, once subscribed; {@link SectionSpan#NONE} if
     *         it is for none or no spans are made
     */
    SectionSpan section() {
        return section;
    }

    /**
     * {@inheritDoc}
     *
     * @throws LockExpiredException, without running the action, if the hold is no longer the handle's
     *         ({@link LockHandle#stillHolds})
     */
    @Override
    public <T, E extends Exception> T run(LockedSection<T, E> action) throws E {
        Hold current = hold;
        if (current != null && !handle.stillHolds(current)) {
            throw new LockExpiredException(handle.getLockKey());
        }
        return section.run(action);
    }

    @Override
    public void ended(Throwable failure) {
        section.ended(failure);
    }

    /**
     * Releases one entry of the hold, unless it was released already or never arrived.
     *
     * @return {@code true} when released (or entries remain); {@code false} when there was nothing to release or
     *         this handle no longer had the hold; fails with {@code LockExpiredException} when the store no longer
     *         had it for this acquisition
     */
    @Override
    public Uni<Boolean> release() {
        Hold current = hold;
        if (current == null || !released.compareAndSet(false, true)) {
            return Uni.createFrom().item(Boolean.FALSE);
        }
        return handle.releaseHold(current);
    }

    @Override
    public Uni<Boolean> acquisition() {
        return map(held -> held != null);
    }

    /** Releases the hold as {@link #release()} does, logging the outcome (and the reason) instead. */
    void releaseQuietly(String reason) {
        Hold current = hold;
        if (current != null && released.compareAndSet(false, true)) {
            HoldRelease.releaseQuietly(handle, current, handle.holdAtLeastMillis(), reason, null);
        }
    }

    /** Gives back a hold that never reached the caller ({@link HoldRelease#giveBackUnused}), at most once. */
    private void giveBackUnused(String reason) {
        Hold current = hold;
        if (current != null && released.compareAndSet(false, true)) {
            HoldRelease.giveBackUnused(handle, current, reason);
        }
    }

    /**
     * Stops the work started under the hold first, and keeps work not started yet from starting; the section's span
     * ends once the release is done.
     */
    void releaseOnCancellation(String reason) {
        cancelled = true;
        Runnable stop = stopWork;
        if (stop != null) {
            stop.run();
        }
        SectionSpan span = section;
        Hold current = hold;
        if (current != null && released.compareAndSet(false, true)) {
            HoldRelease.releaseQuietly(handle, current, handle.holdAtLeastMillis(), reason,
                    span == SectionSpan.NONE ? null : span::cancelled);
        } else {
            span.cancelled();
        }
    }

    /**
     * The action, started only if this acquisition was not cancelled, and cancelled when it is; failed with
     * {@link LockExpiredException}, not started, if the hold is no longer the handle's ({@link LockHandle#stillHolds}).
     */
    <T> Uni<T> guard(Uni<T> action) {
        return Uni.createFrom().deferred(() -> {
            if (cancelled) {
                return Uni.createFrom().<T> nothing();
            }
            if (!handle.stillHolds(hold)) {
                return Uni.createFrom().<T> failure(new LockExpiredException(handle.getLockKey()));
            }
            return action.onSubscription().invoke(subscription -> stopOnCancellation(subscription::cancel));
        });
    }

    <T> Multi<T> guard(Multi<T> action) {
        return Multi.createFrom().deferred(() -> {
            if (cancelled) {
                return Multi.createFrom().<T> nothing();
            }
            if (!handle.stillHolds(hold)) {
                return Multi.createFrom().<T> failure(new LockExpiredException(handle.getLockKey()));
            }
            return action.onSubscription().invoke(subscription -> stopOnCancellation(subscription::cancel));
        });
    }

    /** Written before {@code cancelled} is read, as the cancellation writes it before reading this: one sees the other. */
    private void stopOnCancellation(Runnable stop) {
        stopWork = stop;
        if (cancelled) {
            stop.run();
        }
    }

    private void observe(Hold held, long waitedNanos) {
        LockObserver observer = handle.services().observer();
        if (observer == LockObserver.NONE) {
            return;
        }
        if (held != null) {
            observer.acquired(handle.metricsName(), handle.getLockKey(), held.owner(), held.token(), waitedNanos);
        } else {
            observer.notAcquired(handle.metricsName(), handle.getLockKey(), waitedNanos);
        }
    }

    @Override
    public void subscribe(UniSubscriber<? super Hold> downstream) {
        LockServices services = handle.services();
        LockTracer tracer = services.tracer();
        AcquireSpan span = AcquireSpan.NONE;
        if (tracer != LockTracer.NONE) {
            String store = services.boundedStore().name();
            SectionSpan started = forSection
                    ? tracer.startSection(handle.metricsName(), handle.getLockKey(), store, handle.type())
                    : null;
            if (started != null) {
                section = started;
            }
            span = tracer.startAcquire(handle.metricsName(), handle.getLockKey(), store, handle.type(), waitNanos,
                    started);
        }
        Uni<Hold> acquisition = made != null ? made : handle.acquisition(waitNanos, leaseMillis, span);
        acquisition.subscribe().withSubscriber(new Relay(downstream, span));
    }

    private final class Relay implements UniSubscriber<Hold>, UniSubscription {

        private static final int WAITING = 0;
        private static final int EMITTED = 1;
        private static final int CANCELLED = 2;

        private final UniSubscriber<? super Hold> downstream;
        private final AcquireSpan span;
        private final AtomicInteger state = new AtomicInteger(WAITING);
        private final long startNanos = System.nanoTime();
        private volatile UniSubscription upstream;

        Relay(UniSubscriber<? super Hold> downstream, AcquireSpan span) {
            this.downstream = downstream;
            this.span = span;
        }

        @Override
        public void onSubscribe(UniSubscription subscription) {
            upstream = subscription;
            downstream.onSubscribe(this);
        }

        @Override
        public void onItem(Hold item) {
            hold = item;
            long waitedNanos = System.nanoTime() - startNanos;
            observe(item, waitedNanos);
            if (state.compareAndSet(WAITING, EMITTED)) {
                if (item != null) {
                    span.acquired(item.token(), waitedNanos);
                } else {
                    span.notAcquired(waitedNanos);
                    section.notAcquired();
                }
                downstream.onItem(item);
            } else {
                giveBackUnused("its operation was cancelled");
            }
        }

        @Override
        public void onFailure(Throwable failure) {
            if (state.compareAndSet(WAITING, EMITTED)) {
                span.failed(failure, System.nanoTime() - startNanos);
                section.ended(failure);
                downstream.onFailure(failure);
            }
        }

        @Override
        public void cancel() {
            int previous = state.getAndSet(CANCELLED);
            if (previous == WAITING) {
                upstream.cancel();
                span.cancelled(System.nanoTime() - startNanos);
                section.cancelled();
            } else if (previous == EMITTED) {
                releaseOnCancellation("its operation was cancelled");
            }
        }
    }
}
