package io.quarkiverse.lock.bench;

import io.smallrye.mutiny.Uni;

/**
 * A lock library under benchmark: how it takes and frees a lock, in the shapes the benchmarks need.
 */
interface LockLibrary extends HandoffSubject {

    /** How long every library holds a lock unless released. */
    long LEASE_MILLIS = 10_000;

    /**
     * @param key the lock key
     * @return one uncontended acquire-and-release pair, as the library's users would write it
     */
    Uni<Void> acquireAndRelease(String key);

    /**
     * @param key the lock key
     * @return acquisitions of {@code key} waiting in this JVM, through the library's one client or registry; null
     *         for the libraries the benchmark does not measure so
     */
    default Waiters waiters(String key) {
        return null;
    }

}
