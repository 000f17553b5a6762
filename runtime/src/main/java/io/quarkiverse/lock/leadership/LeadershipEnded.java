package io.quarkiverse.lock.leadership;

import java.time.Instant;

/**
 * This instance's term ended: it no longer leads the group. By the time this is delivered, {@link
 * LeadershipGroup#isLeader()} already answers {@code false} for this term and the work guarded by it was cancelled.
 *
 * @param group the group's name
 * @param term the term that ended
 * @param at when it ended, by this instance's wall clock
 * @param cause why it ended
 */
public record LeadershipEnded(String group, long term, Instant at, Cause cause) implements LeadershipChange {

    /**
     * Why a term ended.
     */
    public enum Cause {
        /** This instance gave leadership up: {@link LeadershipGroup#yieldLeadership()} or {@link LeadershipGroup#leave()}. */
        YIELDED,
        /**
         * The lease could not be counted on any longer while the store answered: it said the lock is no longer this
         * instance's (deleted, or its lease ran out), or no renewal was sent in time (the JVM paused).
         */
        LEASE_LOST,
        /**
         * No renewal was confirmed in time because the store failed, or had not answered the renewal on its way when
         * the belief's deadline passed (a hung store, a dead connection, replies slower than the lease allows).
         */
        STORE_UNREACHABLE,
        /** The application is stopping; the lock was released so that another instance is elected at once. */
        SHUTDOWN
    }
}
