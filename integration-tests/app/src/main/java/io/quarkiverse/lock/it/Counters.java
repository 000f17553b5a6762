package io.quarkiverse.lock.it;

import io.smallrye.mutiny.Uni;

/**
 * Where the application keeps its counters: in the store's server when the application has one (so the counters
 * outlive a restart, as the migration records do), else in this JVM. Reads and writes are separate on purpose: an
 * increment is a read, a pause and a write, safe only under a lock.
 */
public interface Counters {

    /**
     * @param name the counter
     * @return its value, 0 if it was never written
     */
    Uni<Long> get(String name);

    /**
     * @param name the counter
     * @param value its new value
     * @return completes when written
     */
    Uni<Void> set(String name, long value);
}
