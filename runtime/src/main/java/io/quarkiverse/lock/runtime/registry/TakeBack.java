package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * Takes back, in the store, an acquisition whose caller will never hold the lock (it gave up waiting, was cancelled,
 * or its reply was lost, late or failed), or one whose release could not reach the store. The store may have granted
 * it without the caller knowing, and such a grant would stay until its lease ends (for ever, for a lock acquired
 * forever), so a take-back that fails is tried again, with growing pauses, for as long as the grant could still be
 * live: its lease from now, or ten minutes for a lock without lease. Then a grant with a lease has run out (it started
 * before the take-back did), so giving up is logged at debug level; for a lock without lease, an error names the key,
 * since a grant would stay.
 * <p>
 * A take-back names the acquisition's own owner id, so it never frees a hold of another acquisition, and it is sent
 * after the acquisition's own command on the same connection (or on a new one after that one was lost), so the store
 * runs it after the acquisition it takes back.
 */
final class TakeBack implements LockServices.Unsettled {

    private static final Logger LOG = Logger.getLogger(TakeBack.class);
    static final long FIRST_PAUSE_MILLIS = 100;
    static final long LONGEST_PAUSE_MILLIS = 5_000;
    static final long NO_EXPIRY_RETRY_MILLIS = 600_000;
    /** The pause between tries while the registry closes: it lets take-backs finish before the store closes. */
    static final long CLOSING_PAUSE_MILLIS = 20;

    private final LockServices services;
    private final String key;
    private final String owner;
    private final long deadlineNanos;
    private final boolean withoutLease;
    private long pauseMillis = FIRST_PAUSE_MILLIS;
    /** Whether this take-back counts among the registry's pending ones: from its making until answered or given up. */
    private final AtomicBoolean pending = new AtomicBoolean();
    /** The timer of the retry waiting out its pause, or -1. */
    private volatile long retryTimer = -1;

    /** Until when a release that failed must keep the lock held (its minimum hold), as a {@code nanoTime}; or 0. */
    private final long keepUntilNanos;

    private TakeBack(LockServices services, String key, String owner, long leaseMillis, long keepUntilNanos) {
        this.services = services;
        this.key = key;
        this.owner = owner;
        this.keepUntilNanos = keepUntilNanos;
        this.withoutLease = leaseMillis == LockStore.NO_EXPIRY;
        long retryMillis = withoutLease ? NO_EXPIRY_RETRY_MILLIS : leaseMillis;
        this.deadlineNanos = System.nanoTime() + retryMillis * 1_000_000;
        // pending from now: a registry that closes waits for it, with no gap after what made it
        pending();
    }

    /**
     * Sends the take-back, and keeps trying in the background if it fails.
     *
     * @param services the store and timers of the acquisition's registry
     * @param key the lock key
     * @param owner the owner id of the acquisition taken back
     * @param leaseMillis the lease the acquisition asked for, or {@link LockStore#NO_EXPIRY}
     * @return completes (never fails) once the first try answered or failed, with {@code true} if the store had
     *         granted the acquisition the lock and released it now
     */
    static Uni<Boolean> send(LockServices services, String key, String owner, long leaseMillis) {
        return new TakeBack(services, key, owner, leaseMillis, 0).attempt();
    }

    /**
     * Tries the take-back again after a pause, and again until the store answers: for a release or take-back whose
     * first try failed ({@code failure}, logged). The parameters are those of {@link #send}.
     */
    static void retryLater(LockServices services, String key, String owner, long leaseMillis,
            Throwable failure) {
        new TakeBack(services, key, owner, leaseMillis, 0).retryLater(failure);
    }

    /**
     * Tries again, after a pause and until the store answers, a release that was to keep the lock held until its
     * minimum hold is over ({@code keepUntilNanos}) and failed: each try before then asks the store to free the lock
     * when the minimum hold ends, and a try after it takes the lock back. The other parameters are those of
     * {@link #send}.
     */
    static void retryReleaseAfter(LockServices services, String key, String owner, long leaseMillis,
            long keepUntilNanos, Throwable failure) {
        new TakeBack(services, key, owner, leaseMillis, keepUntilNanos).retryLater(failure);
    }

    private Uni<Boolean> attempt() {
        long keepNanos = keepUntilNanos == 0 ? 0 : keepUntilNanos - System.nanoTime();
        LockStore store = services.boundedStore();
        return (keepNanos > 0 ? store.releaseAfter(key, owner, (keepNanos + 999_999) / 1_000_000)
                : store.takeBack(key, owner))
                .invoke(released -> {
                    settled();
                    if (released && keepNanos > 0) {
                        LOG.debugf("Lock '%s' frees when its minimum hold ends, in %d ms", key, keepNanos / 1_000_000);
                    } else if (released) {
                        LOG.debugf("Took back lock '%s', granted to an acquisition that gave up", key);
                    }
                })
                .onFailure().recoverWithItem(failure -> {
                    retryLater(failure);
                    return Boolean.FALSE;
                });
    }

    private void pending() {
        if (pending.compareAndSet(false, true)) {
            services.unsettled(this);
        }
    }

    private void settled() {
        if (pending.compareAndSet(true, false)) {
            services.settled(this);
        }
    }

    /** The registry closes: a retry waiting out its pause is made now. */
    @Override
    public void hurry() {
        long timer = retryTimer;
        if (timer >= 0 && services.vertx().cancelTimer(timer)) {
            retry();
        }
    }

    private void retry() {
        attempt().subscribe().with(ignored -> {
        });
    }

    private void retryLater(Throwable failure) {
        if (System.nanoTime() - deadlineNanos >= 0) {
            settled();
            if (!withoutLease) {
                LOG.debugf("Stopped taking back lock '%s' (%s): any grant to the acquisition that gave up has run out",
                        key, failure.getMessage());
                return;
            }
            LOG.errorf("Could not take back lock '%s' from an acquisition that gave up (%s); if the store granted it, "
                    + "it stays held until an overriding handle releases it", key,
                    failure.getMessage());
            return;
        }
        if (services.isStoreClosed()) {
            settled();
            if (withoutLease) {
                LOG.errorf("Could not take back lock '%s' from an acquisition that gave up before the application "
                        + "stopped (%s); if the store granted it, it stays held until an overriding handle releases it",
                        key, failure.getMessage());
            } else {
                LOG.debugf("Not taking back lock '%s' again (%s): the application stopped; any grant to the "
                        + "acquisition that gave up ends with its lease", key, failure.getMessage());
            }
            return;
        }
        // while the registry closes, tried again soon: the store's connections close once nothing is pending
        long pause = services.isClosed() ? CLOSING_PAUSE_MILLIS : pauseMillis;
        LOG.debugf("Could not take back lock '%s' (%s); trying again in %d ms", key, failure.getMessage(), pause);
        pauseMillis = Math.min(pauseMillis * 2, LONGEST_PAUSE_MILLIS);
        retryTimer = services.vertx().setTimer(pause, id -> retry());
        if (pause != CLOSING_PAUSE_MILLIS && services.isClosed()) {
            // the registry began closing while this pause was chosen, and may have missed this timer
            hurry();
        }
    }
}
