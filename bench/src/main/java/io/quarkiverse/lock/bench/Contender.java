package io.quarkiverse.lock.bench;

/**
 * One contender for a lock in the handoff benchmark, driven by a thread of its own in each run: acquire, hold, release;
 * closed when its runs ended.
 */
interface Contender extends AutoCloseable {

    /**
     * Waits for the lock, up to 30 seconds.
     *
     * @throws Exception if the wait ran out or the library failed
     */
    void acquire() throws Exception;

    /**
     * Releases the lock.
     *
     * @throws Exception if the library failed
     */
    void release() throws Exception;

    /**
     * Frees what the contender's instance holds (its client, registry or connections), once its runs ended.
     */
    @Override
    default void close() {
    }
}
