package io.quarkiverse.lock.tck;

import java.util.concurrent.atomic.AtomicInteger;

import io.smallrye.mutiny.Uni;

/**
 * Counts how many guarded sections run at once, and the most there ever were: a lock that works keeps it at one.
 */
public final class Overlap {

    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger max = new AtomicInteger();

    /**
     * @param action a section
     * @return the section, counted from its subscription to its end (item, failure or cancellation)
     */
    public <T> Uni<T> guard(Uni<T> action) {
        return action.onSubscription().invoke(this::enter).onTermination().invoke(this::leave);
    }

    /**
     * A section begins.
     */
    public void enter() {
        max.accumulateAndGet(inside.incrementAndGet(), Math::max);
    }

    /**
     * A section ends.
     */
    public void leave() {
        inside.decrementAndGet();
    }

    /**
     * @return the most sections that ever ran at once
     */
    public int max() {
        return max.get();
    }

    /**
     * Forgets the most so far, for a new round of sections.
     */
    public void reset() {
        max.set(0);
    }
}
