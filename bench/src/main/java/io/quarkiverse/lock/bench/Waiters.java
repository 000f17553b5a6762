package io.quarkiverse.lock.bench;

import java.util.concurrent.CompletableFuture;

/**
 * Many acquisitions of one key waiting in one JVM (one client or registry), for the local-waiters benchmark: one
 * holder takes the key, the waiters queue behind it, and each waiter releases as soon as it got the lock.
 */
interface Waiters extends AutoCloseable {

    /**
     * Takes the key, for the waiters to wait behind.
     *
     * @throws Exception if the library failed
     */
    void hold() throws Exception;

    /**
     * @param count how many acquisitions wait
     * @return completes when every one of them got the lock (and released it)
     */
    CompletableFuture<Void> queue(int count);

    /**
     * Releases the key that {@link #hold()} took.
     *
     * @throws Exception if the library failed
     */
    void release() throws Exception;

    /** Frees what the waiters needed (threads). */
    @Override
    default void close() {
    }
}
