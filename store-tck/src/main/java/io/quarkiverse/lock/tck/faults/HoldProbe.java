package io.quarkiverse.lock.tck.faults;

import io.smallrye.mutiny.Uni;

/**
 * Asks the store, never through a faulty connection, whether a lock is held under a token: what
 * {@link ClockSectionLog} stamps each section with, so that the checker sees a section that ran without its lock even
 * when no other holder overlapped it.
 */
@FunctionalInterface
public interface HoldProbe {

    /**
     * @param key the lock key, without the store's key prefix
     * @param token the fencing token of the hold
     * @return {@code true} if the store holds the lock under that token now (its lease has not run out), {@code false}
     *         if it is free or held under another token; fails if the store could not be asked
     */
    Uni<Boolean> holds(String key, long token);
}
