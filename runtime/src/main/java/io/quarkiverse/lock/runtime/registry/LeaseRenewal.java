package io.quarkiverse.lock.runtime.registry;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockExpiredException;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * Keeps a hold alive: every third of its lease it asks the store to set the lease again, as long as this acquisition
 * still holds the lock. It stops at release, at cancellation, at shutdown, and when the store says the acquisition no
 * longer holds the lock; the hold is then lost and its holder told.
 * <p>
 * The lease surely runs until the moment the last successful request (the grant, or a renewal) was sent plus the
 * lease, since the store started it when that request arrived. A timer fires at that moment: if no later renewal
 * succeeded by then (the store could not be reached), the hold is lost at once, not at the next renewal attempt, so a
 * holder never believes it holds a lock whose lease may have run out in the store.
 * <p>
 * An extension ({@code extend}) goes through the renewal too, so that one lease command at a time is on its way: it
 * waits for a renewal being answered, and no renewal is sent until it is answered. A store whose commands may overtake
 * each other (on several connections) then never applies a renewal of the old lease after the extension. The lease
 * end it counts on is the extension's as soon as it is sent, if that is sooner (the store may have set it even if the
 * answer is lost), and exactly the extension's once it succeeded; the renewals after it set the new lease, every third
 * of it.
 */
final class LeaseRenewal {

    private static final Logger LOG = Logger.getLogger(LeaseRenewal.class);

    private final CompletableFuture<Void> endSignal = new CompletableFuture<>();
    private final LockHandle handle;
    private final LockServices services;
    private final Hold hold;
    /** Guarded by this: extensions asked for while a lease command was on its way, sent in turn. */
    private final ArrayDeque<Extension> extensions = new ArrayDeque<>();
    private volatile boolean stopped;
    /** Guarded by this: a renewal or an extension was sent and is not answered yet. */
    private boolean sending;
    private volatile long renewalTimer = -1;
    private volatile long expiryTimer = -1;
    private volatile long leaseEndNanos;

    LeaseRenewal(LockHandle handle, Hold hold) {
        this.handle = handle;
        this.services = handle.services();
        this.hold = hold;
    }

    /**
     * @param sentNanos when the request that granted the hold was sent
     */
    void start(long sentNanos) {
        if (services.isClosed()) {
            return;
        }
        services.renewing(this);
        synchronized (this) {
            leaseRunsFrom(sentNanos, hold.leaseMillis(), false);
            schedule();
        }
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
     * Stops renewing. A renewal or extension being sent is sent before this returns, never after, and extensions
     * still waiting answer {@code false}: the release that stops the renewal is sent after it, so no lease command
     * can reach the store after the release and restore a lease the release shortened to what remains of the minimum
     * hold.
     */
    void stop() {
        List<Extension> refused;
        synchronized (this) {
            stopped = true;
            refused = new ArrayList<>(extensions);
            extensions.clear();
        }
        services.stoppedRenewing(this);
        cancel(renewalTimer);
        cancel(expiryTimer);
        for (Extension extension : refused) {
            extension.emitter.complete(Boolean.FALSE);
        }
    }

    /**
     * Sets the hold's lease to {@code leaseMillis} from now (or to the end of its minimum hold if later), and renews
     * with that lease from then on, once no other lease command is on its way.
     *
     * @return emits {@code true} if the store set the lease; {@code false} if the renewal stopped first (the hold
     *         ended) or the store no longer had the lock for this acquisition (the hold is then lost); fails with the
     *         store's failure, after which renewal goes on
     */
    Uni<Boolean> extend(long leaseMillis) {
        return Uni.createFrom().emitter(emitter -> {
            boolean refused;
            synchronized (this) {
                refused = stopped;
                if (!refused) {
                    Extension extension = new Extension(leaseMillis, emitter);
                    if (sending) {
                        extensions.add(extension);
                    } else {
                        send(extension);
                    }
                }
            }
            if (refused) {
                emitter.complete(Boolean.FALSE);
            }
        });
    }

    private void cancel(long timer) {
        if (timer >= 0) {
            services.vertx().cancelTimer(timer);
        }
    }

    /** Holding the monitor: plans the next renewal, a third of the hold's lease from now. */
    private void schedule() {
        if (!stopped && !services.isClosed()) {
            long periodMillis = Math.max(1, hold.leaseMillis() / 3);
            renewalTimer = services.vertx().setTimer(periodMillis, this::renew);
        }
    }

    /**
     * Holding the monitor: counts on the lease lasting until {@code sentNanos} plus {@code leaseMillis}, and loses the
     * hold then unless a later command moved it.
     *
     * @param exact {@code true} to take that end even if sooner than the one counted on (an extension answered: the
     *        last command the store applied), {@code false} to take it only if later (a renewal of the same lease)
     */
    private void leaseRunsFrom(long sentNanos, long leaseMillis, boolean exact) {
        long end = sentNanos + leaseMillis * 1_000_000;
        if (!exact && expiryTimer >= 0 && end - leaseEndNanos <= 0) {
            return;
        }
        expireAt(end);
    }

    /** Holding the monitor: counts on the lease lasting no longer than {@code end}. */
    private void leaseEndsBy(long end) {
        if (expiryTimer < 0 || end - leaseEndNanos < 0) {
            expireAt(end);
        }
    }

    private void expireAt(long end) {
        leaseEndNanos = end;
        cancel(expiryTimer);
        if (!stopped) {
            long delayMillis = Math.max(1, (end - System.nanoTime()) / 1_000_000);
            expiryTimer = services.vertx().setTimer(delayMillis, id -> onLeaseEnd(end));
        }
    }

    private synchronized void onLeaseEnd(long end) {
        if (!stopped && leaseEndNanos == end) {
            lose("no renewal reached the store before its lease ran out");
        }
    }

    /**
     * Sends a renewal unless stopped, an extension is on its way, or the timer is not the current one; under the
     * monitor {@link #stop()} takes, so a stop waits for a send under way.
     */
    private synchronized void renew(long timer) {
        if (stopped || sending || timer != renewalTimer) {
            return;
        }
        send(null);
    }

    /**
     * Holding the monitor, not stopped and nothing on its way: sends a renewal ({@code extension} null) or an
     * extension, with the lease the hold sets now.
     */
    private void send(Extension extension) {
        sending = true;
        cancel(renewalTimer);
        renewalTimer = -1;
        long sentNanos = System.nanoTime();
        long leaseMillis;
        if (extension != null) {
            hold.setLease(extension.leaseMillis);
            leaseMillis = hold.leaseCovering();
            leaseEndsBy(sentNanos + leaseMillis * 1_000_000);
        } else {
            leaseMillis = hold.leaseCovering();
        }
        Uni<Boolean> command;
        try {
            command = services.boundedStore().renew(handle.getLockKey(), hold.owner(), leaseMillis);
        } catch (RuntimeException e) {
            answered(extension, sentNanos, leaseMillis, null, e);
            return;
        }
        command.subscribe().with(renewed -> answered(extension, sentNanos, leaseMillis, renewed, null),
                failure -> answered(extension, sentNanos, leaseMillis, null, failure));
    }

    /** The store answered a lease command ({@code renewed}), or it failed ({@code failure}). */
    private void answered(Extension extension, long sentNanos, long leaseMillis, Boolean renewed, Throwable failure) {
        synchronized (this) {
            sending = false;
            if (failure != null) {
                if (extension == null) {
                    services.observer().storeFailed(handle.metricsName(), handle.getLockKey(), "renew");
                }
                LOG.debugf("Could not %s the lease of lock '%s' (%s); renewing again",
                        extension == null ? "renew" : "extend", handle.getLockKey(), failure.getMessage());
            } else if (renewed) {
                leaseRunsFrom(sentNanos, leaseMillis, extension != null);
                if (extension == null) {
                    services.observer().renewed(handle.metricsName(), handle.getLockKey());
                }
            } else {
                lose("the store no longer holds it for this acquisition");
            }
            sendNext();
        }
        if (extension != null) {
            if (failure != null) {
                extension.emitter.fail(failure);
            } else {
                extension.emitter.complete(renewed);
            }
        }
    }

    /** Holding the monitor: sends the next extension still wanted, or plans the next renewal. */
    private void sendNext() {
        Extension next;
        while (!stopped && (next = extensions.poll()) != null) {
            if (!next.over) {
                send(next);
                return;
            }
        }
        schedule();
    }

    private void lose(String why) {
        if (stopped) {
            return;
        }
        LOG.warnf("Lock '%s' was lost while held: %s", handle.getLockKey(), why);
        hold.lose(new LockExpiredException(handle.getLockKey()));
        services.observer().leaseExpired(handle.metricsName(), handle.getLockKey(), hold.owner(), hold.heldNanos());
    }

    /** An extension waiting for its turn: the lease it asks for, and its caller. */
    private static final class Extension {

        final long leaseMillis;
        final UniEmitter<? super Boolean> emitter;
        /** Its caller went away (or it was answered): not to be sent if still waiting. */
        volatile boolean over;

        Extension(long leaseMillis, UniEmitter<? super Boolean> emitter) {
            this.leaseMillis = leaseMillis;
            this.emitter = emitter;
            emitter.onTermination(() -> over = true);
        }
    }
}
