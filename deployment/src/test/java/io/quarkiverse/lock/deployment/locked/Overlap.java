package io.quarkiverse.lock.deployment.locked;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts how many calls are inside a section at once, and the most there ever were.
 */
public class Overlap {

    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger max = new AtomicInteger();

    void enter() {
        max.accumulateAndGet(inside.incrementAndGet(), Math::max);
    }

    void leave() {
        inside.decrementAndGet();
    }

    int max() {
        return max.get();
    }

    void reset() {
        max.set(0);
    }
}
