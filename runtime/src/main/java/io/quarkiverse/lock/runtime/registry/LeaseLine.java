package io.quarkiverse.lock.runtime.registry;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;

/**
 * The one line of a hold's lease commands: its renewals, its re-entries' renewals and its extensions
 * ({@code extend}) all go through it, one on its way to the store at a time, in the order they were asked for. A
 * store whose commands may overtake each other (on several connections) then never applies an older lease after a
 * newer one: a re-entry's renewal sent before an extension never lands after it and shortens the lease the extension
 * promised. Each command sets the lease the hold has when it is sent (a re-entry the longer of that and the one it
 * asks for), so none sets a lease shorter than the last one confirmed.
 * <p>
 * The hold adopts a new lease (an extension's, a longer one of a re-entry) only once the store confirmed it: a command
 * that failed or timed out may or may not have been applied, so the hold keeps its lease, and its renewals come as
 * often as the shorter of the two needs; they then set the hold's lease again. Since such a command may still reach
 * the store late, after a later one was confirmed, the hold keeps counting on its lease if shorter (the loss timer and
 * the renewals' pace), for as long as the hold lasts.
 * <p>
 * When the handle renews ({@code withLeaseRenewal(true)}), every third of the hold's lease the line asks the store to
 * set the lease again, as long as this acquisition still holds the lock. It stops at release, at cancellation, at
 * shutdown, and when the store says the acquisition no longer holds the lock; the hold is then lost and its holder
 * told. The lease surely runs until the moment the last confirmed command was sent plus its lease, since the store
 * started it when that command arrived, and no sooner than any unconfirmed command sent since then plus its lease. A
 * timer fires at the earlier of those moments: if no later command was confirmed by then (the store could not be
 * reached), the hold is lost at once, not at the next renewal attempt, so a holder never believes it holds a lock
 * whose lease may have run out in the store. A hold acquired forever is not renewed until an extension gives it a
 * lease.
 * <p>
 * A command confirmed after the hold was found lost answers {@code false}: its holder was told the lock is lost. The
 * lease it set is taken back ({@link TakeBack}), since no holder counts on it.
 * <p>
 * Commands are sent holding the monitor (so that a stop waits for a send under way), and a store may answer at once,
 * within the send; the callers are answered only once the monitor is released ({@link #deliver()}), so no caller's
 * code runs holding it.
 */
final class LeaseLine {

    private static final Logger LOG = Logger.getLogger(LeaseLine.class);
    /** No lease but the hold's may be in the store: the last command was confirmed. */
    private static final long NONE = -1;

    private final CompletableFuture<Void> endSignal = new CompletableFuture<>();
    private final LockHandle handle;
    private final LockServices services;
    private final Hold hold;
    private final boolean renews;
    /** Guarded by this: commands asked for while another was on its way, sent in turn. */
    private final ArrayDeque<Command> waiting = new ArrayDeque<>();
    /** Guarded by this: answers to callers, given once the monitor is released. */
    private final ArrayDeque<Runnable> answers = new ArrayDeque<>();
    private volatile boolean stopped;
    /** Guarded by this: the hold was found lost. */
    private boolean lost;
    /** Guarded by this: a command was sent and is not answered yet. */
    private boolean sending;
    /**
     * Guarded by this: the shortest lease a command sent since the last confirmed one may have set, {@link #NONE}
     * when there is no such command.
     */
    private long unconfirmedMillis = NONE;
    /**
     * Guarded by this: the shortest lease a command that failed or timed out may still set, {@link #NONE} when there
     * is no such command. Such a command may reach the store late (held on the network, sent again, or on another
     * connection than the commands after it), after a later one was confirmed, and set its lease from then on: the
     * hold counts on it, and renews as often as it needs, for as long as the hold lasts.
     */
    private long staleMillis = NONE;
    /** Guarded by this: the lease end counted on, while {@link #expiryTimer} is set. */
    private long leaseEndNanos;
    private volatile long renewalTimer = -1;
    private volatile long expiryTimer = -1;

    /**
     * @param handle the handle whose hold it is
     * @param hold the hold
     * @param renews whether the line renews the hold's lease by itself
     */
    LeaseLine(LockHandle handle, Hold hold, boolean renews) {
        this.handle = handle;
        this.services = handle.services();
        this.hold = hold;
        this.renews = renews;
    }

    /**
     * Starts renewing, if this line renews. The hold is visible to the handle's other callers before this runs: a
     * command they sent meanwhile keeps the lease end it may have set counted on (the grant's lease only moves it
     * sooner), a renewal already planned or a command on its way plans the next one, and a line stopped meanwhile
     * (released or found lost) stays stopped, unregistered.
     *
     * @param sentNanos when the request that granted the hold was sent
     */
    void start(long sentNanos) {
        if (!renews || services.isClosed()) {
            return;
        }
        synchronized (this) {
            if (stopped) {
                return;
            }
            services.renewing(this);
            leaseMayEndAt(sentNanos, hold.leaseMillis());
            if (!sending && renewalTimer < 0) {
                schedule();
            }
        }
    }

    /**
     * @return completes when the hold ends; fails with {@link LockExpiredException} if the lock was found lost
     */
    CompletableFuture<Void> endSignal() {
        return endSignal;
    }

    /**
     * Stops the line and completes the signal, unless it completed already.
     *
     * @param lostBy why the lock was found lost, or {@code null} for a hold that ended normally
     */
    void end(LockExpiredException lostBy) {
        if (lostBy != null) {
            synchronized (this) {
                lost = true;
            }
        }
        stop();
        if (lostBy == null) {
            endSignal.complete(null);
        } else {
            endSignal.completeExceptionally(lostBy);
        }
    }

    /**
     * Stops the line. A command being sent is sent before this returns, never after; extensions still waiting answer
     * {@code false}, unsent, and so do re-entries if the hold was lost: the release that stops the line is sent after
     * it, so no lease command can reach the store after the release and restore a lease the release shortened to what
     * remains of the minimum hold.
     */
    void stop() {
        synchronized (this) {
            halt();
        }
        services.stoppedRenewing(this);
        cancel(renewalTimer);
        cancel(expiryTimer);
        deliver();
    }

    /**
     * Sets the hold's lease to {@code leaseMillis} from now (or to the end of its minimum hold if later), and renews
     * with that lease from then on, once the commands asked for before it were answered.
     *
     * @return emits {@code true} if the store set the lease; {@code false} if the line stopped first (the hold ended),
     *         the store no longer had the lock for this acquisition, or the hold was found lost before the store's
     *         answer came; fails with the store's failure, after which the hold keeps its lease
     */
    Uni<Boolean> extend(long leaseMillis) {
        return Uni.createFrom().emitter(emitter -> ask(new Command(Kind.EXTENSION, leaseMillis, emitter)));
    }

    /**
     * Sets the lease again for a re-entry: the longer of the hold's lease and {@code askedMillis}, which the hold
     * adopts once the store confirmed it. Always answered: the re-entry gives back its entry only then.
     *
     * @param askedMillis the lease the re-entry asks for, or {@link LockStore#NO_EXPIRY}
     * @return emits {@code true} if the store set the lease; {@code false} if the store no longer had the lock for
     *         this acquisition or the hold was found lost; fails with the store's failure, or with an
     *         {@link IllegalStateException} if the line stopped (the registry is closing)
     */
    Uni<Boolean> reenter(long askedMillis) {
        return Uni.createFrom().emitter(emitter -> ask(new Command(Kind.REENTRY, askedMillis, emitter)));
    }

    private void ask(Command command) {
        synchronized (this) {
            if (stopped) {
                boolean wasLost = lost;
                answers.add(() -> command.refuse(wasLost, handle.getLockKey()));
            } else if (sending) {
                waiting.add(command);
            } else {
                send(command);
            }
        }
        deliver();
    }

    /**
     * Gives the callers the answers ready, unless the current thread holds the monitor: the outermost call that took
     * it gives them once it released it.
     */
    private void deliver() {
        if (Thread.holdsLock(this)) {
            return;
        }
        while (true) {
            Runnable answer;
            synchronized (this) {
                answer = answers.poll();
            }
            if (answer == null) {
                return;
            }
            answer.run();
        }
    }

    private void cancel(long timer) {
        if (timer >= 0) {
            services.vertx().cancelTimer(timer);
        }
    }

    /**
     * Holding the monitor: plans the next renewal, a third of the shorter of the hold's lease and any unconfirmed one
     * from now; none for a hold without lease.
     */
    private void schedule() {
        if (!renews || stopped || services.isClosed()) {
            return;
        }
        long leaseMillis = shorter(hold.leaseMillis(), unconfirmedMillis);
        if (leaseMillis != LockStore.NO_EXPIRY) {
            renewalTimer = services.vertx().setTimer(Math.max(1, leaseMillis / 3), this::renew);
        }
    }

    /**
     * Holding the monitor: the store confirmed a command sent at {@code sentNanos} setting {@code leaseMillis}, the
     * last one it applied; the hold is lost at its end unless a later command moves it.
     */
    private void leaseSetAt(long sentNanos, long leaseMillis) {
        if (!renews || stopped) {
            return;
        }
        if (leaseMillis == LockStore.NO_EXPIRY) {
            cancel(expiryTimer);
            expiryTimer = -1;
            return;
        }
        expireAt(sentNanos + leaseMillis * 1_000_000);
    }

    /**
     * Holding the monitor: a command sent at {@code sentNanos} may set {@code leaseMillis}; the lease is counted on
     * to last no longer than that.
     */
    private void leaseMayEndAt(long sentNanos, long leaseMillis) {
        if (!renews || stopped || leaseMillis == LockStore.NO_EXPIRY) {
            return;
        }
        long end = sentNanos + leaseMillis * 1_000_000;
        if (expiryTimer < 0 || end - leaseEndNanos < 0) {
            expireAt(end);
        }
    }

    private void expireAt(long end) {
        leaseEndNanos = end;
        cancel(expiryTimer);
        long delayMillis = Math.max(1, (end - System.nanoTime()) / 1_000_000);
        expiryTimer = services.vertx().setTimer(delayMillis, this::onLeaseEnd);
    }

    private void onLeaseEnd(long timer) {
        synchronized (this) {
            if (!stopped && timer == expiryTimer) {
                lose("no renewal reached the store before its lease ran out");
            }
        }
        deliver();
    }

    /**
     * Sends a renewal unless stopped, a command is on its way, or the timer is not the current one; under the monitor
     * {@link #stop()} takes, so a stop waits for a send under way.
     */
    private void renew(long timer) {
        synchronized (this) {
            if (stopped || sending || timer != renewalTimer) {
                return;
            }
            send(new Command(Kind.RENEWAL, 0, null));
        }
        deliver();
    }

    /**
     * Holding the monitor, not stopped and nothing on its way: sends the command, with the lease the hold sets now.
     */
    private void send(Command command) {
        sending = true;
        cancel(renewalTimer);
        renewalTimer = -1;
        long sentNanos = System.nanoTime();
        long askedMillis = switch (command.kind) {
            case RENEWAL -> hold.leaseMillis();
            case REENTRY -> Hold.longer(hold.leaseMillis(), command.leaseMillis);
            case EXTENSION -> command.leaseMillis;
        };
        long leaseMillis = hold.covering(askedMillis);
        hold.mayHaveLease(leaseMillis);
        unconfirmedMillis = shorter(leaseMillis, unconfirmedMillis);
        leaseMayEndAt(sentNanos, leaseMillis);
        Uni<Boolean> sent;
        try {
            sent = services.boundedStore().renew(handle.getLockKey(), hold.owner(), leaseMillis);
        } catch (RuntimeException e) {
            answered(command, sentNanos, askedMillis, leaseMillis, null, e);
            return;
        }
        sent.subscribe().with(renewed -> answered(command, sentNanos, askedMillis, leaseMillis, renewed, null),
                failure -> answered(command, sentNanos, askedMillis, leaseMillis, null, failure));
    }

    /** The store answered a lease command ({@code renewed}), or it failed ({@code failure}). */
    private void answered(Command command, long sentNanos, long askedMillis, long leaseMillis, Boolean renewed,
            Throwable failure) {
        synchronized (this) {
            sending = false;
            if (failure != null) {
                staleMillis = shorter(leaseMillis, staleMillis);
                if (command.kind == Kind.RENEWAL) {
                    services.observer().storeFailed(handle.metricsName(), handle.getLockKey(), "renew");
                }
                LOG.debugf("Could not %s the lease of lock '%s' (%s); renewing again", command.kind.verb,
                        handle.getLockKey(), failure.getMessage());
            } else if (renewed) {
                unconfirmedMillis = staleMillis;
                if (!lost) {
                    hold.adoptLease(askedMillis);
                    leaseSetAt(sentNanos, shorter(leaseMillis, staleMillis));
                } else {
                    // The store set the lease of a hold whose holder was told it is lost (and a re-entry's handle
                    // dropped it): nobody tracks it, so it is taken back before the command's caller is answered.
                    answers.add(() -> TakeBack.send(services, handle.getLockKey(), hold.owner(), leaseMillis)
                            .subscribe().with(ignored -> {
                            }));
                }
                if (command.kind == Kind.RENEWAL) {
                    services.observer().renewed(handle.metricsName(), handle.getLockKey());
                }
            } else if (renews) {
                lose("the store no longer holds it for this acquisition");
            }
            boolean answer = failure == null && renewed && !lost;
            if (command.emitter != null) {
                answers.add(() -> {
                    if (failure != null) {
                        command.emitter.fail(failure);
                    } else {
                        command.emitter.complete(answer);
                    }
                });
            }
            sendNext();
        }
        deliver();
    }

    /** Holding the monitor: sends the next command still wanted, or plans the next renewal. */
    private void sendNext() {
        Command next;
        while (!stopped && (next = waiting.poll()) != null) {
            if (!next.over) {
                send(next);
                return;
            }
        }
        schedule();
    }

    /** Holding the monitor: stops the line, and refuses the commands still waiting once the monitor is released. */
    private void halt() {
        stopped = true;
        boolean wasLost = lost;
        for (Command command : waiting) {
            answers.add(() -> command.refuse(wasLost, handle.getLockKey()));
        }
        waiting.clear();
    }

    /**
     * Holding the monitor: the hold is lost, unless the line stopped. The line stops at once; the hold ends as lost
     * (its holder told) once the monitor is released.
     */
    private void lose(String why) {
        if (stopped) {
            return;
        }
        LOG.warnf("Lock '%s' was lost while held: %s", handle.getLockKey(), why);
        lost = true;
        halt();
        answers.add(() -> {
            hold.lose(new LockExpiredException(handle.getLockKey()));
            services.observer().leaseExpired(handle.metricsName(), handle.getLockKey(), hold.owner(),
                    hold.heldNanos());
        });
    }

    /**
     * @return the shorter of two leases, {@link LockStore#NO_EXPIRY} being the longest; {@code b} may be
     *         {@link #NONE}, for none
     */
    private static long shorter(long a, long b) {
        if (b == NONE || b == LockStore.NO_EXPIRY) {
            return a;
        }
        return a == LockStore.NO_EXPIRY ? b : Math.min(a, b);
    }

    /** What a command is for. */
    private enum Kind {
        RENEWAL("renew"),
        REENTRY("renew for a re-entry"),
        EXTENSION("extend");

        final String verb;

        Kind(String verb) {
            this.verb = verb;
        }
    }

    /** A lease command waiting for its turn: what it is for, the lease it asks for, and its caller (none for a renewal). */
    private static final class Command {

        final Kind kind;
        final long leaseMillis;
        final UniEmitter<? super Boolean> emitter;
        /** An extension's caller went away (or it was answered): not to be sent if still waiting. */
        volatile boolean over;

        Command(Kind kind, long leaseMillis, UniEmitter<? super Boolean> emitter) {
            this.kind = kind;
            this.leaseMillis = leaseMillis;
            this.emitter = emitter;
            if (kind == Kind.EXTENSION) {
                emitter.onTermination(() -> over = true);
            }
        }

        /** Answers a command the stopped line does not send. */
        void refuse(boolean lost, String key) {
            if (kind == Kind.REENTRY && !lost) {
                emitter.fail(new IllegalStateException("The hold of lock '" + key + "' ended: the registry is closing"));
            } else {
                emitter.complete(Boolean.FALSE);
            }
        }
    }
}
