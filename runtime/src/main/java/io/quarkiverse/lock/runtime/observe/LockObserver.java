package io.quarkiverse.lock.runtime.observe;

import io.quarkiverse.lock.leadership.LeadershipEnded;

/**
 * Told what the locks of this application do, for metrics and the Dev UI. Called on the thread that saw the event
 * (often a Vert.x event loop): implementations must be quick and must not block or throw.
 * <p>
 * {@code name} is the handle's metrics name: the {@code @Locked} key template, the name given with
 * {@code withMetricsName}, or {@link #UNNAMED}; never the raw key, so that it can tag metrics safely.
 */
public interface LockObserver {

    /** The metrics name of a handle that was given none. */
    String UNNAMED = "unnamed";

    /** Observes nothing. */
    LockObserver NONE = new LockObserver() {
    };

    /**
     * An acquisition succeeded (a reentrant handle's re-entry included).
     *
     * @param name the handle's metrics name
     * @param key the lock key
     * @param owner the holder's owner id
     * @param token the hold's fencing token
     * @param waitNanos how long the acquisition took
     */
    default void acquired(String name, String key, String owner, long token, long waitNanos) {
    }

    /**
     * An acquisition ended without the lock: another owner held it for the whole wait.
     *
     * @param name the handle's metrics name
     * @param key the lock key
     * @param waitNanos how long the acquisition waited
     */
    default void notAcquired(String name, String key, long waitNanos) {
    }

    /**
     * A {@code @Locked} call did not run its method: another owner held the lock and the method skips when busy (its
     * acquisition was reported by {@link #notAcquired} before), or the store failed and the method is a scheduled job
     * (the failure was reported by {@link #storeFailed} before).
     *
     * @param name the method's metrics name (its key template)
     * @param key the lock key
     * @param reason why the method did not run
     */
    default void skipped(String name, String key, SkipReason reason) {
    }

    /**
     * A hold ended by a release that found it held.
     *
     * @param name the handle's metrics name
     * @param key the lock key
     * @param owner the holder's owner id
     * @param holdNanos how long the lock was held
     */
    default void released(String name, String key, String owner, long holdNanos) {
    }

    /**
     * A hold ended because its lease ran out while held: a renewal found it lost, or the release found it expired.
     *
     * @param name the handle's metrics name
     * @param key the lock key
     * @param owner the holder's owner id
     * @param holdNanos how long the holder believed it held the lock
     */
    default void leaseExpired(String name, String key, String owner, long holdNanos) {
    }

    /**
     * A lease renewal reached the store and kept the lock.
     *
     * @param name the handle's metrics name
     * @param key the lock key
     */
    default void renewed(String name, String key) {
    }

    /**
     * An operation on the store failed (or did not answer in time).
     *
     * @param name the handle's metrics name
     * @param key the lock key
     * @param operation what failed: {@code acquire}, {@code release}, {@code renew}, {@code check}, ...
     */
    default void storeFailed(String name, String key, String operation) {
    }

    /**
     * The store failed after it had answered: an outage started. Told once per outage, whatever the number of
     * operations that fail in it.
     */
    default void storeOutageStarted() {
    }

    /**
     * The store answered again after an outage.
     *
     * @param outageNanos how long the outage lasted
     */
    default void storeOutageEnded(long outageNanos) {
    }

    /**
     * This instance began leading a leadership group.
     *
     * @param group the group's name
     * @param term the term, the fencing token of the group's lock
     */
    default void elected(String group, long term) {
    }

    /**
     * This instance's term of a leadership group ended.
     *
     * @param group the group's name
     * @param term the term
     * @param cause why it ended
     */
    default void leadershipEnded(String group, long term, LeadershipEnded.Cause cause) {
    }

    /**
     * Why a {@code @Locked} call did not run its method.
     */
    enum SkipReason {
        /** Another owner held the lock for the whole wait. */
        BUSY("busy"),
        /** The store failed (or did not answer in time) while the call tried to acquire the lock. */
        STORE_FAILURE("store_failure");

        private final String tag;

        SkipReason(String tag) {
            this.tag = tag;
        }

        /** @return the value of the {@code reason} tag of the {@code quarkus.lock.skipped} meter */
        public String tag() {
            return tag;
        }
    }
}
