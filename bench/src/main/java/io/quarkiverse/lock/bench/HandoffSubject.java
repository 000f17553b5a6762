package io.quarkiverse.lock.bench;

/**
 * What the handoff benchmark passes around: a lock library, or a floor that is no distributed lock but shows the least
 * a handoff costs on some path.
 */
interface HandoffSubject extends AutoCloseable {

    /** How long a contender waits. */
    long WAIT_MILLIS = 30_000;

    /**
     * @return the name in the tables
     */
    String name();

    /**
     * @param key the lock key
     * @param index the contender's number; each contender stands for a separate application instance
     * @return a contender for the handoff benchmark
     */
    Contender contender(String key, int index);

    @Override
    default void close() {
    }
}
