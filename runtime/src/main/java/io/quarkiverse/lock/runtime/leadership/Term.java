package io.quarkiverse.lock.runtime.leadership;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.leadership.LeadershipEnded;

/**
 * One term of this instance: the hold on the group's lock that makes it leader, its fencing token, and the local
 * belief that it leads, which lasts until a deadline on this JVM's monotonic clock ({@link System#nanoTime()}): the
 * send time of the last request the store confirmed, plus the lease, minus the safety margin.
 * <p>
 * The belief only moves one way: once anyone finds the deadline passed (a caller of {@link #believed()}, the expiry
 * timer, a renewal answered late), it is over for good, so a renewal confirmed after that never brings it back. Ending
 * the term ({@link #end}) ends the belief first, then tells the work guarded by it to stop, each on a thread of its own,
 * so that no cancellation waits for another one, and none holds the thread that ends terms.
 */
final class Term {

    private static final Logger LOG = Logger.getLogger(Term.class);
    /** The belief of a term that is over. */
    private static final Belief OVER = new Belief(0);

    private final long token;
    private final ReactiveDistributedLock lock;
    private final Instant electedAt = Instant.now();
    private final AtomicReference<Belief> belief;
    private final AtomicReference<LeadershipEnded.Cause> endedBy = new AtomicReference<>();
    private final Set<Consumer<LeadershipEnded.Cause>> endListeners = ConcurrentHashMap.newKeySet();
    /** Completes once the term ended, its end was queued for the observers, and its lock released (or that failed). */
    private final CompletableFuture<Void> released = new CompletableFuture<>();
    /** Told once when a caller of {@link #believed()} finds the deadline passed, so the term is ended at once. */
    private final Consumer<Term> onExpiredBelief;
    /** Runs the cancellations of the guarded work; must not run them on the caller's thread. */
    private final Executor cancellations;
    /** Whether the last renewal failed (the store failed or did not answer): the cause if the deadline passes. */
    private volatile boolean storeFailing;
    /** Whether a renewal is on its way, sent at {@link #renewalSentNanos}: also the cause if the deadline passes. */
    private volatile boolean renewing;
    private volatile long renewalSentNanos;

    Term(long token, ReactiveDistributedLock lock, long deadlineNanos, Consumer<Term> onExpiredBelief,
            Executor cancellations) {
        this.token = token;
        this.lock = lock;
        this.belief = new AtomicReference<>(new Belief(deadlineNanos));
        this.onExpiredBelief = onExpiredBelief;
        this.cancellations = cancellations;
    }

    long token() {
        return token;
    }

    ReactiveDistributedLock lock() {
        return lock;
    }

    Instant electedAt() {
        return electedAt;
    }

    /**
     * @return {@code true} if this instance still believes it leads in this term: the term did not end and its
     *         deadline has not passed; a passed deadline ends the belief for good
     */
    boolean believed() {
        while (true) {
            Belief current = belief.get();
            if (current == OVER) {
                return false;
            }
            if (System.nanoTime() - current.deadlineNanos < 0) {
                return true;
            }
            // Lost only to a renewal confirmed meanwhile, whose deadline is read again: no false before a true.
            if (belief.compareAndSet(current, OVER)) {
                onExpiredBelief.accept(this);
                return false;
            }
        }
    }

    /**
     * Moves the deadline after the store confirmed a renewal, unless the belief is over already.
     *
     * @return {@code true} if moved; {@code false} if the belief was over (the deadline had passed by the time the
     *         answer came), which ends it for good
     */
    boolean extendTo(long deadlineNanos) {
        Belief current = belief.get();
        if (current == OVER) {
            return false;
        }
        if (System.nanoTime() - current.deadlineNanos >= 0) {
            belief.compareAndSet(current, OVER);
            return false;
        }
        return belief.compareAndSet(current, new Belief(deadlineNanos));
    }

    /** A renewal is on its way. */
    void renewalSent(long sentNanos) {
        renewalSentNanos = sentNanos;
        renewing = true;
    }

    /** The renewal on its way was answered, or failed. */
    void renewalAnswered(boolean failed) {
        storeFailing = failed;
        renewing = false;
    }

    /** @return whether the belief is over (its deadline passed), without ending it */
    boolean deadlinePassed() {
        Belief current = belief.get();
        return current == OVER || System.nanoTime() - current.deadlineNanos >= 0;
    }

    /** @return why the term ended, or why it ends now that its deadline passed; {@code null} while it lasts */
    LeadershipEnded.Cause overBy() {
        LeadershipEnded.Cause cause = endedBy.get();
        return cause != null || !deadlinePassed() ? cause : expiryCause();
    }

    /** @return how long ago the renewal on its way was sent, in nanoseconds, or {@code -1} if none is */
    long renewalUnansweredNanos() {
        return renewing ? System.nanoTime() - renewalSentNanos : -1;
    }

    /**
     * @return why the term ends when its deadline passed: the store is unreachable if the last renewal failed or is
     *         still unanswered (a hung store answers nothing until the operation timeout, after the deadline); the
     *         lease is lost if no renewal was sent in time (a paused JVM)
     */
    LeadershipEnded.Cause expiryCause() {
        return storeFailing || renewing ? LeadershipEnded.Cause.STORE_UNREACHABLE : LeadershipEnded.Cause.LEASE_LOST;
    }

    /**
     * Ends the term: the belief first, then each listener told once, on a thread of its own (a listener that throws is
     * logged).
     *
     * @return completes once every listener returned; {@code null} if the term had ended already
     */
    CompletableFuture<Void> end(LeadershipEnded.Cause cause) {
        belief.set(OVER);
        if (!endedBy.compareAndSet(null, cause)) {
            return null;
        }
        List<CompletableFuture<Void>> told = new ArrayList<>();
        for (Consumer<LeadershipEnded.Cause> listener : endListeners) {
            try {
                told.add(CompletableFuture.runAsync(() -> tell(listener, cause), cancellations));
            } catch (RejectedExecutionException stopped) {
                tell(listener, cause);
            }
        }
        return CompletableFuture.allOf(told.toArray(new CompletableFuture<?>[0]));
    }

    /**
     * @return completes once the term ended, its end was queued for the observers, and its lock was released (or its
     *         release failed, the lease then freeing it): whoever ends the term, every caller waits for this. A stage
     *         of its own to each caller, so that one who stops waiting (a cancelled subscription cancels the future
     *         it waits on) does not end the wait of the others
     */
    CompletionStage<Void> released() {
        return released.minimalCompletionStage();
    }

    /** The term's end was queued and its lock released, or the release failed: {@link #released()} completes. */
    void markReleased() {
        released.complete(null);
    }

    /** @return why the term ended, or {@code null} while it lasts */
    LeadershipEnded.Cause endedBy() {
        return endedBy.get();
    }

    /**
     * Calls {@code listener} once when the term ends, at once if it has ended.
     *
     * @return removes the listener; it is not called after that returns (unless it was being called)
     */
    Runnable whenEnded(Consumer<LeadershipEnded.Cause> listener) {
        endListeners.add(listener);
        LeadershipEnded.Cause cause = endedBy.get();
        if (cause != null) {
            tell(listener, cause);
        }
        return () -> endListeners.remove(listener);
    }

    private void tell(Consumer<LeadershipEnded.Cause> listener, LeadershipEnded.Cause cause) {
        if (endListeners.remove(listener)) {
            try {
                listener.accept(cause);
            } catch (Throwable e) {
                LOG.errorf(e, "Could not cancel work guarded by term %d of lock '%s'", token, lock.getLockKey());
            }
        }
    }

    /** A deadline of the belief; {@link #OVER} for none. */
    private record Belief(long deadlineNanos) {
    }
}
