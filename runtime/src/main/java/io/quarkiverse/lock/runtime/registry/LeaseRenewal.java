package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CompletableFuture;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockExpiredException;

/**
 * Keeps a hold alive: every third of its lease it asks the store to set the lease again, as long as the holder still
 * holds the lock. It stops at release, at cancellation, at shutdown, and when the store says the holder no longer
 * holds the lock, or when no renewal succeeded for a whole lease (the store could not be reached); the hold is then
 * lost and its holder told.
 */
final class LeaseRenewal {

    private static final Logger LOG = Logger.getLogger(LeaseRenewal.class);

    /** Ends when the hold ends; fails with {@link LockExpiredException} if the lock was found lost. */
    final CompletableFuture<Void> end = new CompletableFuture<>();
    private final LockHandle handle;
    private final Hold hold;
    private final long periodMillis;
    private volatile boolean stopped;
    private volatile long timerId = -1;
    private long lastRenewedNanos;

    LeaseRenewal(LockHandle handle, Hold hold) {
        this.handle = handle;
        this.hold = hold;
        this.periodMillis = Math.max(1, hold.leaseMillis / 3);
        this.lastRenewedNanos = System.nanoTime();
    }

    void start() {
        handle.registry.renewals.add(this);
        schedule();
    }

    void stop() {
        stopped = true;
        handle.registry.renewals.remove(this);
        long timer = timerId;
        if (timer >= 0) {
            handle.registry.vertx.cancelTimer(timer);
        }
    }

    private void schedule() {
        if (!stopped) {
            timerId = handle.registry.vertx.setTimer(periodMillis, id -> renew());
        }
    }

    private void renew() {
        if (stopped) {
            return;
        }
        handle.registry.store.renew(handle.key, handle.owner, hold.leaseMillis).subscribe().with(renewed -> {
            if (renewed) {
                lastRenewedNanos = System.nanoTime();
                handle.registry.observer.renewed(handle.metricsName(), handle.key);
                schedule();
            } else {
                lose("the store no longer holds it for this owner");
            }
        }, failure -> {
            handle.registry.observer.storeFailed(handle.metricsName(), handle.key, "renew");
            if ((System.nanoTime() - lastRenewedNanos) / 1_000_000 >= hold.leaseMillis) {
                lose("no renewal reached the store for a whole lease: " + failure.getMessage());
            } else {
                LOG.debugf("Could not renew the lease of lock '%s' (%s); trying again", handle.key,
                        failure.getMessage());
                schedule();
            }
        });
    }

    private void lose(String why) {
        LOG.warnf("Lock '%s' was lost while held: %s", handle.key, why);
        hold.lost(new LockExpiredException(handle.key));
        handle.registry.observer.leaseExpired(handle.metricsName(), handle.key, handle.owner, hold.heldNanos());
    }
}
