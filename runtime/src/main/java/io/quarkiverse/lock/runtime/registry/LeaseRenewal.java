package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CompletableFuture;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockExpiredException;

/**
 * Keeps a hold alive: every third of its lease it asks the store to set the lease again, as long as this acquisition
 * still holds the lock. It stops at release, at cancellation, at shutdown, and when the store says the acquisition no
 * longer holds the lock; the hold is then lost and its holder told.
 * <p>
 * The lease surely runs until the moment the last successful request (the grant, or a renewal) was sent plus the
 * lease, since the store started it when that request arrived. A timer fires at that moment: if no later renewal
 * succeeded by then (the store could not be reached), the hold is lost at once, not at the next renewal attempt, so a
 * holder never believes it holds a lock whose lease may have run out in the store.
 */
final class LeaseRenewal {

    private static final Logger LOG = Logger.getLogger(LeaseRenewal.class);

    private final CompletableFuture<Void> endSignal = new CompletableFuture<>();
    private final LockHandle handle;
    private final LockServices services;
    private final Hold hold;
    private final long periodMillis;
    private volatile boolean stopped;
    private volatile long renewalTimer = -1;
    private volatile long expiryTimer = -1;
    private volatile long leaseEndNanos;

    LeaseRenewal(LockHandle handle, Hold hold) {
        this.handle = handle;
        this.services = handle.services();
        this.hold = hold;
        this.periodMillis = Math.max(1, hold.leaseMillis() / 3);
    }

    /**
     * @param sentNanos when the request that granted the hold was sent
     */
    void start(long sentNanos) {
        if (services.isClosed()) {
            return;
        }
        services.renewing(this);
        leaseRunsFrom(sentNanos);
        schedule();
    }

    /**
     * @return completes when the hold ends; fails with {@link LockExpiredException} if the lock was found lost
     */
    CompletableFuture<Void> endSignal() {
        return endSignal;
    }

    /**
     * Stops renewing and completes the signal, unless it completed already.
     *
     * @param lost why the lock was found lost, or {@code null} for a hold that ended normally
     */
    void end(LockExpiredException lost) {
        stop();
        if (lost == null) {
            endSignal.complete(null);
        } else {
            endSignal.completeExceptionally(lost);
        }
    }

    /**
     * Stops renewing. A renewal being sent is sent before this returns, never after: the release that stops the
     * renewal is sent after it, so the renewal cannot reach the store after the release and restore a lease the
     * release shortened to what remains of the minimum hold.
     */
    void stop() {
        synchronized (this) {
            stopped = true;
        }
        services.stoppedRenewing(this);
        cancel(renewalTimer);
        cancel(expiryTimer);
    }

    private void cancel(long timer) {
        if (timer >= 0) {
            services.vertx().cancelTimer(timer);
        }
    }

    private void schedule() {
        if (!stopped) {
            renewalTimer = services.vertx().setTimer(periodMillis, id -> renew());
        }
    }

    private synchronized void leaseRunsFrom(long sentNanos) {
        long end = sentNanos + hold.leaseMillis() * 1_000_000;
        if (expiryTimer >= 0 && end - leaseEndNanos <= 0) {
            return;
        }
        leaseEndNanos = end;
        cancel(expiryTimer);
        if (!stopped) {
            long delayMillis = Math.max(1, (end - System.nanoTime()) / 1_000_000);
            expiryTimer = services.vertx().setTimer(delayMillis, id -> onLeaseEnd(end));
        }
    }

    private void onLeaseEnd(long end) {
        if (!stopped && leaseEndNanos == end) {
            lose("no renewal reached the store before its lease ran out");
        }
    }

    /** Sends a renewal unless stopped, under the monitor {@link #stop()} takes, so a stop waits for a send under way. */
    private synchronized void renew() {
        if (stopped) {
            return;
        }
        long sentNanos = System.nanoTime();
        services.boundedStore().renew(handle.getLockKey(), hold.owner(), hold.leaseMillis()).subscribe().with(renewed -> {
            if (renewed) {
                leaseRunsFrom(sentNanos);
                services.observer().renewed(handle.metricsName(), handle.getLockKey());
                schedule();
            } else {
                lose("the store no longer holds it for this acquisition");
            }
        }, failure -> {
            services.observer().storeFailed(handle.metricsName(), handle.getLockKey(), "renew");
            LOG.debugf("Could not renew the lease of lock '%s' (%s); trying again", handle.getLockKey(), failure.getMessage());
            schedule();
        });
    }

    private void lose(String why) {
        if (stopped) {
            return;
        }
        LOG.warnf("Lock '%s' was lost while held: %s", handle.getLockKey(), why);
        hold.lose(new LockExpiredException(handle.getLockKey()));
        services.observer().leaseExpired(handle.metricsName(), handle.getLockKey(), hold.owner(), hold.heldNanos());
    }
}
