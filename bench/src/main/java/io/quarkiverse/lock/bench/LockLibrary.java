package io.quarkiverse.lock.bench;

import io.smallrye.mutiny.Uni;

/**
 * A lock library under benchmark: how it takes and frees a lock, in the shapes the benchmarks need.
 */
interface LockLibrary extends AutoCloseable {

    /** How long every library holds a lock unless released. */
    long LEASE_MILLIS = 10_000;
    /** How long a contender waits. */
    long WAIT_MILLIS = 30_000;

    /**
     * @return the library's name in the tables
     */
    String name();

    /**
     * @param key the lock key
     * @return one uncontended acquire-and-release pair, as the library's users would write it
     */
    Uni<Void> acquireAndRelease(String key);

    /**
     * @param key the lock key
     * @param index the contender's number; each contender stands for a separate application instance
     * @return a contender for the handoff benchmark
     */
    Contender contender(String key, int index);

    /**
     * @param key the lock key
     * @return acquisitions of {@code key} waiting in this JVM, through the library's one client or registry; null
     *         for the libraries the benchmark does not measure so
     */
    default Waiters waiters(String key) {
        return null;
    }

    @Override
    default void close() {
    }
}
