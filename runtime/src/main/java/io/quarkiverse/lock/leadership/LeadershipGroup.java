package io.quarkiverse.lock.leadership;

import java.util.Optional;
import java.util.OptionalLong;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * One leadership group, as this instance takes part in it.
 * <p>
 * While joined, the instance tries to hold the group's lock; once it holds it, it leads for a term whose number is the
 * lock's fencing token (strictly increasing across the terms of every instance), and renews the lock's lease every
 * {@code renew-interval}. Its belief that it leads ({@link #isLeader()}) is local and cheap, and ends no later than
 * {@code safety-margin} before the lease it was last granted can end in the store, by this JVM's monotonic clock,
 * counted from when the request that granted it was sent: a leader whose renewals fail, come late or stop (a paused
 * JVM) stops believing before another instance can be granted the lock. When the term ends, work guarded by it
 * ({@link #whileLeading(Uni)}, {@link Leading}) is cancelled first, then the lock is released, and the instance is
 * told with a {@link LeadershipEnded} event.
 */
public interface LeadershipGroup {

    /**
     * @return the group's name
     */
    String name();

    /**
     * Starts taking part: this instance tries to become leader from now on, and again after each term it loses. Does
     * not wait for an election. Joining a joined group does nothing.
     *
     * @throws IllegalStateException if the group is disabled ({@code enabled=false}) or the application is stopping
     */
    void join();

    /**
     * Stops taking part: ends this instance's term if it leads (cause {@link LeadershipEnded.Cause#YIELDED}), and
     * stops trying to become leader. Leaving a group not joined does nothing.
     *
     * @return a {@link Uni} completing once the lock is released, also when an election was under way (another
     *         instance may then be elected at once); it completes also when the release failed (the lease then frees
     *         the lock)
     */
    Uni<Void> leave();

    /**
     * @return {@code true} if this instance takes part in the group (it joined and did not leave)
     */
    boolean isJoined();

    /**
     * Tells whether this instance leads the group now: a local check that reads no store. It turns {@code false} no
     * later than {@code safety-margin} before the end of the lease the store last confirmed, by this JVM's monotonic
     * clock, whether or not the store can be reached, and it never turns {@code true} again for the same term.
     *
     * @return {@code true} if this instance leads now
     */
    boolean isLeader();

    /**
     * @return the term this instance leads now (the fencing token of the group's lock, to pass to systems downstream
     *         that must reject an older leader's writes), or empty if it does not lead now ({@link #isLeader()})
     */
    OptionalLong term();

    /**
     * Ends this instance's term now, if it leads, and releases the group's lock so that another instance is elected at
     * once; this instance stays joined and tries again only after {@code renew-interval}, so that another one wins.
     *
     * @return a {@link Uni} emitting {@code true} if this instance led and yielded (the lock released, or its release
     *         failed and the lease frees it), {@code false} if it did not lead
     */
    Uni<Boolean> yieldLeadership();

    /**
     * Asks the store who leads the group now. The store knows the lock's holder by an acquisition id only, not by
     * instance: the answer tells the term, and whether it is this instance's. It reads the store's listing of held
     * locks page by page until it finds the group's lock, so its cost grows with the number of locks held in the
     * store; use {@link #isLeader()} for a cheap check.
     *
     * @return a {@link Uni} emitting the leader, or empty if nobody holds the group's lock; it fails with
     *         {@link io.quarkiverse.lock.LockException} if the store failed or cannot list its locks
     */
    Uni<Optional<Leader>> leader();

    /**
     * Runs {@code work} only while this instance leads: it is subscribed to if this instance leads at subscription,
     * and cancelled as soon as that term ends.
     *
     * @param work the work; subscribed to only on the leader
     * @param <T> the type of its item
     * @return a {@link Uni} emitting the work's item; it fails with {@link NotLeaderException} if this instance did
     *         not lead at subscription (the work is not subscribed to) or if the term ended before the work emitted
     *         (the work is cancelled, and an item it emits anyway is dropped), and with the work's own failure
     *         otherwise
     * @throws IllegalArgumentException if {@code work} is {@code null}
     */
    <T> Uni<T> whileLeading(Uni<T> work);

    /**
     * Streams {@code work} only while this instance leads, as {@link #whileLeading(Uni)} runs a {@link Uni}.
     *
     * @param work the stream; subscribed to only on the leader
     * @param <T> the type of its items
     * @return a {@link Multi} emitting the work's items; it fails with {@link NotLeaderException} if this instance did
     *         not lead at subscription, or when the term ends before the stream completed (the stream is cancelled,
     *         even while it emits at subscription, and no item it emits after the term ended is delivered)
     * @throws IllegalArgumentException if {@code work} is {@code null}
     */
    <T> Multi<T> whileLeadingMany(Multi<T> work);

    /**
     * The changes of this group, as {@link Leadership#changes()} streams them.
     *
     * @return the stream of this group's changes
     */
    Multi<LeadershipChange> changes();
}
