package io.quarkiverse.lock.runtime.leadership;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.HeldLock;
import io.quarkiverse.lock.LockAdmin;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.leadership.Leader;
import io.quarkiverse.lock.leadership.LeaderElected;
import io.quarkiverse.lock.leadership.LeadershipChange;
import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.leadership.LeadershipGroup;
import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * This instance's part in one group: while joined, it contends for the group's lock (a waiting acquisition, woken by
 * the store's release notifications, so a yield hands over at once); once granted, it confirms the lease with one
 * renewal and leads from then on, until its {@link Term} ends.
 * <p>
 * The lease is counted from when a request was sent, never from when its answer came: the election's confirming
 * renewal, then each renewal, sent every {@code renew-interval}, one at a time. Each confirmed one sets the term's
 * deadline to its send time plus the lease minus the safety margin; a timer ends the term at that deadline unless a
 * later renewal moved it.
 * <p>
 * Decisions are made holding the monitor; store requests, guarded work and listeners run outside it (a store may
 * answer within the call that sends its request). A term ends in this order: its belief, its guarded work told to stop
 * (on threads of its own: the timer thread that ends terms is shared by every group, and runs no user code), the
 * metrics, the change queued for the observers (never waited for; delivered once the guarded work returned), and
 * last, once the guarded work returned, the release of the lock.
 */
final class GroupMember implements LeadershipGroup {

    private static final Logger LOG = Logger.getLogger(GroupMember.class);

    private final String name;
    private final String key;
    private final LeadershipSettings settings;
    private final boolean enabled;
    private final LockRegistry registry;
    /** The store behind the registry, told when a renewal got no answer by the deadline. */
    private final LockStore store;
    private final LockAdmin admin;
    private final ScheduledExecutorService timers;
    private final Executor cancellations;
    private final ChangeDispatcher changes;
    private final LockObserver observer;
    private final Duration lease;

    /** Guarded by this. */
    private boolean joined;
    /** Guarded by this: the application is stopping. */
    private boolean closed;
    /** Guarded by this: the acquisition under way, or {@code null}. */
    private Attempt attempt;
    /** Guarded by this: the current term, or {@code null}. Its belief may be over before it is cleared. */
    private Term term;
    /** Guarded by this: the last term that ended, until its lock is released; {@code null} once it is. */
    private Term releasing;
    /** Guarded by this: the next renewal, the expiry of the belief, the next attempt. */
    private ScheduledFuture<?> renewal;
    private ScheduledFuture<?> expiry;
    private ScheduledFuture<?> retry;
    /** The current term, for the lock-free reads of {@link #isLeader()}. */
    private volatile Term current;

    GroupMember(String name, LeadershipSettings settings, boolean enabled, LockRegistry registry, LockStore store,
            LockAdmin admin, ScheduledExecutorService timers, Executor cancellations, ChangeDispatcher changes,
            LockObserver observer) {
        this.name = name;
        this.key = lockKey(name);
        this.settings = settings;
        this.enabled = enabled;
        this.registry = registry;
        this.store = store;
        this.admin = admin;
        this.timers = timers;
        this.cancellations = cancellations;
        this.changes = changes;
        this.observer = observer;
        this.lease = settings.lease();
    }

    /** @return the key of the lock behind a group */
    static String lockKey(String group) {
        return "leadership:" + group;
    }

    @Override
    public String name() {
        return name;
    }

    LeadershipSettings settings() {
        return settings;
    }

    boolean enabled() {
        return enabled;
    }

    @Override
    public void join() {
        synchronized (this) {
            if (!enabled) {
                throw new IllegalStateException("Leadership group '" + name + "' is disabled ("
                        + LeadershipSettings.property(name, "enabled") + "=false): this application does not take part");
            }
            if (closed) {
                throw new IllegalStateException("The application is stopping: it cannot join leadership group '"
                        + name + "'");
            }
            if (joined) {
                return;
            }
            joined = true;
        }
        contend();
    }

    @Override
    public Uni<Void> leave() {
        return stop(false);
    }

    @Override
    public synchronized boolean isJoined() {
        return joined;
    }

    @Override
    public boolean isLeader() {
        Term leading = current;
        return leading != null && leading.believed();
    }

    @Override
    public OptionalLong term() {
        Term leading = current;
        return leading != null && leading.believed() ? OptionalLong.of(leading.token()) : OptionalLong.empty();
    }

    /** @return the term this instance believes it leads now, or {@code null} */
    Term believedTerm() {
        Term leading = current;
        return leading != null && leading.believed() ? leading : null;
    }

    @Override
    public Uni<Boolean> yieldLeadership() {
        return Uni.createFrom().deferred(() -> {
            Term leading = believedTerm();
            if (leading == null) {
                return Uni.createFrom().item(Boolean.FALSE);
            }
            return endTerm(leading, LeadershipEnded.Cause.YIELDED).replaceWith(Boolean.TRUE);
        });
    }

    @Override
    public Uni<Optional<Leader>> leader() {
        return Uni.createFrom().deferred(() -> findLeader(null));
    }

    private Uni<Optional<Leader>> findLeader(String cursor) {
        return admin.held(cursor, LockAdmin.MAX_LIMIT).flatMap(page -> {
            for (HeldLock held : page.locks()) {
                if (held.key().equals(key)) {
                    Term leading = believedTerm();
                    return Uni.createFrom().item(Optional.of(new Leader(name, held.token(),
                            leading != null && leading.token() == held.token())));
                }
            }
            return page.hasNext() ? findLeader(page.next()) : Uni.createFrom().item(Optional.<Leader> empty());
        });
    }

    @Override
    public <T> Uni<T> whileLeading(Uni<T> work) {
        return WhileLeading.uni(this, "the work", work, false);
    }

    @Override
    public <T> Multi<T> whileLeadingMany(Multi<T> work) {
        return WhileLeading.multi(this, "the work", work, false);
    }

    @Override
    public Multi<LeadershipChange> changes() {
        return changes.stream();
    }

    /**
     * Stops for good, at shutdown: ends the term with {@link LeadershipEnded.Cause#SHUTDOWN} and stops contending.
     *
     * @return completes once the lock is released (or its release failed)
     */
    Uni<Void> close() {
        return stop(true);
    }

    /**
     * Stops contending, and ends the term if there is one.
     *
     * @return completes once whatever this instance may hold is released: the term's lock, and an attempt's (granted
     *         but not confirmed yet, say)
     */
    private Uni<Void> stop(boolean closing) {
        Term ending;
        Term unreleased;
        Attempt abandoned;
        synchronized (this) {
            closed |= closing;
            joined = false;
            abandoned = attempt;
            attempt = null;
            ending = term;
            unreleased = releasing;
            cancel(retry);
        }
        Uni<Void> released = Uni.createFrom().voidItem();
        if (abandoned != null) {
            // A grant that reached the attempt before its cancellation (its confirming renewal on its way) is released
            // here, now, whether or not the caller subscribes.
            abandoned.cancel();
            released = Uni.createFrom().completionStage(
                    releaseQuietly(abandoned.lock).subscribeAsCompletionStage());
        }
        Uni<Void> ended = ending == null ? Uni.createFrom().voidItem()
                : endTerm(ending, closing ? LeadershipEnded.Cause.SHUTDOWN : LeadershipEnded.Cause.YIELDED);
        // a term that ended before (a yield, an expiry) may still wait for its guarded work before its release
        Uni<Void> endedBefore = unreleased == null || unreleased == ending ? Uni.createFrom().voidItem()
                : Uni.createFrom().completionStage(unreleased.released());
        return Uni.join().all(released, ended, endedBefore).andCollectFailures().replaceWithVoid();
    }

    /** Starts an acquisition, unless one is under way, this instance leads, or it does not take part. */
    private void contend() {
        Attempt started;
        synchronized (this) {
            if (!joined || closed || attempt != null || term != null) {
                return;
            }
            cancel(retry);
            started = new Attempt(registry.obtain(key).withLeaseRenewal(false).withMetricsName(key));
            attempt = started;
        }
        // Waits up to one lease per acquisition, then asks again: each ends before a lease of ours could matter.
        started.running = started.lock.acquire(lease, lease).subscribe().with(
                acquired -> acquired(started, acquired), failure -> attemptFailed(started, failure, "acquire"));
        synchronized (this) {
            if (attempt != started) {
                started.cancel();
            }
        }
    }

    private void acquired(Attempt granted, boolean acquired) {
        if (!acquired) {
            synchronized (this) {
                if (attempt == granted) {
                    attempt = null;
                }
            }
            contend();
            return;
        }
        // The grant may be a hand-over made before this instance heard of it: its lease is counted from a renewal.
        long sentNanos = System.nanoTime();
        granted.lock.extend(lease).subscribe().with(confirmed -> confirmed(granted, sentNanos, confirmed),
                failure -> attemptFailed(granted, failure, "confirm the lease of"));
    }

    private void confirmed(Attempt granted, long sentNanos, boolean confirmed) {
        long deadline = sentNanos + settings.believedNanos();
        Term elected = null;
        synchronized (this) {
            boolean wanted = attempt == granted;
            if (wanted) {
                attempt = null;
            }
            if (wanted && confirmed && System.nanoTime() - deadline < 0
                    && granted.lock.fencingToken().isPresent()) {
                Term made = new Term(granted.lock.fencingToken().getAsLong(), granted.lock, deadline,
                        this::expireSoon, cancellations);
                elected = made;
                term = made;
                current = made;
                // Queued once the term can be seen, so that its observers find this instance leading, and under this
                // monitor, so before its end, which is queued under it too.
                changes.dispatch(new LeaderElected(name, made.token(), made.electedAt()));
                renewal = schedule(() -> renew(made), sentNanos + settings.renewIntervalNanos());
                expiry = schedule(() -> expire(made), deadline);
            }
        }
        if (elected == null) {
            // Not wanted any more (left, stopping), not confirmed (lost at once), or confirmed too late to count on.
            releaseQuietly(granted.lock).subscribe().with(ignored -> contend());
            return;
        }
        observer.elected(name, elected.token());
    }

    private void attemptFailed(Attempt failed, Throwable failure, String what) {
        LOG.debugf("Could not %s the lock of leadership group '%s': %s", what, name, failure.getMessage());
        synchronized (this) {
            if (attempt == failed) {
                attempt = null;
            }
        }
        // Whatever the store granted this acquisition is given back before the next one starts.
        releaseQuietly(failed.lock).subscribe().with(ignored -> retryLater());
    }

    private void retryLater() {
        synchronized (this) {
            if (!joined || closed || attempt != null || term != null) {
                return;
            }
            cancel(retry);
            retry = schedule(this::contend, System.nanoTime() + settings.renewIntervalNanos());
        }
    }

    private void renew(Term leading) {
        synchronized (this) {
            if (term != leading) {
                return;
            }
        }
        long sentNanos = System.nanoTime();
        leading.renewalSent(sentNanos);
        leading.lock().extend(lease).subscribe().with(renewed -> renewed(leading, sentNanos, renewed),
                failure -> renewalFailed(leading, sentNanos, failure));
    }

    private void renewed(Term leading, long sentNanos, boolean renewed) {
        if (!renewed) {
            endTerm(leading, LeadershipEnded.Cause.LEASE_LOST);
            return;
        }
        long deadline = sentNanos + settings.believedNanos();
        if (!leading.extendTo(deadline)) {
            // Answered after the deadline: the store did not answer in time.
            endTerm(leading, leading.expiryCause());
            return;
        }
        leading.renewalAnswered(false);
        synchronized (this) {
            if (term != leading) {
                return;
            }
            cancel(expiry);
            expiry = schedule(() -> expire(leading), deadline);
            renewal = schedule(() -> renew(leading), sentNanos + settings.renewIntervalNanos());
        }
    }

    private void renewalFailed(Term leading, long sentNanos, Throwable failure) {
        LOG.debugf("Could not renew term %d of leadership group '%s': %s", leading.token(), name,
                failure.getMessage());
        leading.renewalAnswered(true);
        synchronized (this) {
            if (term != leading) {
                return;
            }
            renewal = schedule(() -> renew(leading), sentNanos + settings.renewIntervalNanos());
        }
    }

    private void expire(Term leading) {
        if (!leading.deadlinePassed()) {
            // A renewal confirmed just before this timer fired moved the deadline; the timer it set ends the term.
            return;
        }
        long unanswered = leading.renewalUnansweredNanos();
        if (unanswered >= 0 && leading.endedBy() == null) {
            // A connection that swallows traffic fails only at the operation timeout: the store replaces it now if it
            // answered nothing for that long, so the release and the next election do not wait for the timeout.
            store.noAnswer(Duration.ofNanos(unanswered));
        }
        endTerm(leading, leading.expiryCause());
    }

    /** A caller found a term's deadline passed before its timer fired: ends it at once, on the timers' thread. */
    private void expireSoon(Term leading) {
        try {
            timers.execute(() -> expire(leading));
        } catch (RejectedExecutionException stopped) {
            expire(leading);
        }
    }

    /**
     * Ends a term: its belief and guarded work first, then the metrics, the change queued, and the release once the
     * guarded work returned (another instance may be elected at once). Contends again at once, with a new
     * acquisition, unless it yielded (then {@code renew-interval} after the release, so another instance wins) or is
     * stopping: the release does not hold up the next election (it may wait for the operation timeout).
     *
     * @return completes once the end is queued and the lock released or its release failed, whichever caller ended
     *         the term ({@link Term#released()})
     */
    private Uni<Void> endTerm(Term ending, LeadershipEnded.Cause cause) {
        CompletableFuture<Void> stopped = ending.end(cause);
        if (stopped == null) {
            // Another caller is ending it: done once that one queued the end and released the lock.
            return Uni.createFrom().completionStage(ending.released());
        }
        synchronized (this) {
            if (term == ending) {
                term = null;
                current = null;
                cancel(renewal);
                cancel(expiry);
            }
            releasing = ending;
            // Queued before the next term can begin: it is contended for only once no term is held.
            changes.dispatch(new LeadershipEnded(name, ending.token(), Instant.now(), cause), stopped);
        }
        observer.leadershipEnded(name, ending.token(), cause);
        if (cause == LeadershipEnded.Cause.LEASE_LOST || cause == LeadershipEnded.Cause.STORE_UNREACHABLE) {
            LOG.warnf("This instance stopped leading group '%s' (term %d): %s", name, ending.token(), cause);
        }
        stopped.whenComplete((ignored, failure) -> releaseQuietly(ending.lock()).subscribe().with(done -> {
            synchronized (this) {
                if (releasing == ending) {
                    releasing = null;
                }
            }
            ending.markReleased();
            if (cause == LeadershipEnded.Cause.YIELDED) {
                retryLater();
            }
        }));
        if (cause != LeadershipEnded.Cause.YIELDED && cause != LeadershipEnded.Cause.SHUTDOWN) {
            contend();
        }
        return Uni.createFrom().completionStage(ending.released());
    }

    /** Releases a hold, if it is one; whatever the outcome, completes (a lease left frees the lock by itself). */
    private Uni<Void> releaseQuietly(ReactiveDistributedLock lock) {
        return lock.release().onFailure().recoverWithItem(failure -> {
            LOG.debugf("Could not release the lock of leadership group '%s': %s", name, failure.getMessage());
            return Boolean.FALSE;
        }).replaceWithVoid();
    }

    private ScheduledFuture<?> schedule(Runnable task, long atNanos) {
        try {
            return timers.schedule(task, Math.max(0, atNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopped) {
            return null;
        }
    }

    private static void cancel(ScheduledFuture<?> timer) {
        if (timer != null) {
            timer.cancel(false);
        }
    }

    @Override
    public String toString() {
        return "LeadershipGroup[" + name + ", joined=" + isJoined() + ", leader=" + isLeader() + "]";
    }

    /** One acquisition of the group's lock, and its subscription, cancelled when it is no longer wanted. */
    private static final class Attempt {

        final ReactiveDistributedLock lock;
        volatile Cancellable running;

        Attempt(ReactiveDistributedLock lock) {
            this.lock = lock;
        }

        void cancel() {
            Cancellable subscription = running;
            if (subscription != null) {
                subscription.cancel();
            }
        }
    }
}
