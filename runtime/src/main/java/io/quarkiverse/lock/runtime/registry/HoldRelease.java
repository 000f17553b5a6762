package io.quarkiverse.lock.runtime.registry;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * Ends a handle's hold. The last entry of a hold ends it in the store at once (compare and delete), unless the lock
 * must stay held until some time after its acquisition ({@code withHoldAtLeast}) and that time has not come yet: then
 * the lease in the store is set to what remains of it ({@link LockStore#releaseAfter}, compare and renew, which no
 * renewal still on its way can extend), so the store frees the lock by itself at that moment, even if this application stops or
 * dies first; no local timer is involved. Either way the hold is over
 * for the handle at once: its renewal stops, and it may acquire again (getting the lock only once the store freed it).
 * <p>
 * The store call is sent at once and is not cancelled by cancelling the returned {@link Uni} (a cancelled caller must
 * not leave its lock held). A release that fails (the store could not be reached, or did not answer in time), and a
 * shortening of a lease without end, is tried again in the background as a take-back of that acquisition
 * ({@link TakeBack}), so a lock whose release was lost does not stay held; a failed release that was to keep the
 * minimum hold, of a lease that may end later, is tried again as it was (the store frees the lock when the minimum
 * hold ends), and as a take-back once the minimum hold is over.
 */
final class HoldRelease {

    private static final Logger LOG = Logger.getLogger(HoldRelease.class);
    private static final Uni<Boolean> FALSE = Uni.createFrom().item(Boolean.FALSE);
    private static final Uni<Boolean> TRUE = Uni.createFrom().item(Boolean.TRUE);

    private HoldRelease() {
    }

    /**
     * Releases one entry of the hold, and ends the hold with the last, if the handle still has it.
     *
     * @param holdAtLeastMillis how long after its acquisition the lock stays held; zero to free it at once
     * @return {@code true} when released or kept until its minimum hold (or entries remain); {@code false} when the
     *         handle no longer had that hold (it was released); fails with {@link LockExpiredException} when the store
     *         no longer had it for this acquisition, or the hold was found lost (by a renewal, or replaced by a later
     *         grant to the same handle)
     */
    static Uni<Boolean> release(LockHandle handle, Hold held, long holdAtLeastMillis) {
        if (held.leaveOneEntry()) {
            return TRUE;
        }
        if (!handle.dropHold(held)) {
            return held.isLost() ? Uni.createFrom().failure(new LockExpiredException(handle.getLockKey())) : FALSE;
        }
        held.stopRenewal();
        long keepMillis = keepMillis(held, holdAtLeastMillis);
        long keepUntilNanos = System.nanoTime() + keepMillis * 1_000_000;
        String key = handle.getLockKey();
        LockServices services = handle.services();
        Uni<Boolean> ended = keepMillis > 0 ? services.boundedStore().releaseAfter(key, held.owner(), keepMillis)
                : services.boundedStore().release(key, held.owner());
        Uni<Boolean> sent = ended
                .onFailure().invoke(failure -> {
                    long longest = held.longestLeaseMillis();
                    if (keepMillis <= 0 || longest == LockStore.NO_EXPIRY) {
                        TakeBack.retryLater(services, key, held.owner(), longest, failure);
                    } else if (longest > keepMillis) {
                        // The store may keep the lock until the lease it has ends, which an extension may have made
                        // far longer than the minimum hold: asked again to free it when the minimum hold is over.
                        TakeBack.retryReleaseAfter(services, key, held.owner(), longest, keepUntilNanos, failure);
                    }
                })
                .onTermination().invoke(() -> {
                    held.end();
                    if (keepMillis <= 0) {
                        services.states().released(key);
                    }
                })
                .invoke(released -> {
                    if (released) {
                        services.observer().released(handle.metricsName(), key, held.owner(), held.heldNanos());
                        if (keepMillis > 0) {
                            LOG.debugf("Lock '%s' stays held for %d ms more, until %d ms after its acquisition", key,
                                    keepMillis, holdAtLeastMillis);
                        }
                    } else if (!held.isLost()) {
                        services.observer().leaseExpired(handle.metricsName(), key, held.owner(), held.heldNanos());
                    }
                })
                .memoize().indefinitely();
        // Sent now and seen through whatever the caller does: a cancelled caller must not cancel its release.
        sent.subscribe().with(ignored -> {
        }, ignored -> {
        });
        return sent.onFailure().transform(failure -> handle.storeFailure("release", failure))
                .flatMap(released -> released ? TRUE : Uni.createFrom().failure(new LockExpiredException(key)));
    }

    /**
     * Releases as {@link #release} does when nobody is left to tell (a cancelled operation): logs the outcome.
     *
     * @param whenDone run once the release ended, whatever its outcome; may be {@code null}
     */
    static void releaseQuietly(LockHandle handle, Hold held, long holdAtLeastMillis, String reason,
            Runnable whenDone) {
        Uni<Boolean> release = release(handle, held, holdAtLeastMillis);
        if (whenDone != null) {
            release = release.onTermination().invoke(whenDone);
        }
        release.subscribe().with(
                released -> LOG.debugf("Released lock '%s' because %s", handle.getLockKey(), reason),
                failure -> {
                    if (failure instanceof LockExpiredException) {
                        LOG.debugf("Lock '%s' was already free when released because %s", handle.getLockKey(), reason);
                    } else {
                        LOG.warnf(failure, "Could not release lock '%s' after %s; it frees when its lease runs out",
                                handle.getLockKey(), reason);
                    }
                });
    }

    /**
     * Gives back a hold that its acquisition's caller never got (the acquisition was cancelled as it arrived): freed at
     * once, since no work ran under it, unless a re-entry used the hold meanwhile, whose work the minimum hold covers.
     */
    static void giveBackUnused(LockHandle handle, Hold held, String reason) {
        releaseQuietly(handle, held, held.wasEnteredAgain() ? handle.holdAtLeastMillis() : 0, reason, null);
    }

    /**
     * @return how much longer the store must keep the lock so that it is held {@code holdAtLeastMillis} after its
     *         acquisition (counted from when the grant reached this handle, later than the store made it), never more
     *         than the lease the hold sets ({@link Hold#leaseCovering()}); zero or less when that time has passed
     */
    static long keepMillis(Hold held, long holdAtLeastMillis) {
        if (holdAtLeastMillis <= 0) {
            return 0;
        }
        long remaining = holdAtLeastMillis - held.heldNanos() / 1_000_000;
        long lease = held.leaseCovering();
        return lease == LockStore.NO_EXPIRY ? remaining : Math.min(remaining, lease);
    }
}
