package io.quarkiverse.lock.it.virtualthreads;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Counts critical sections per slot so that two sections of one slot at once show: each reads its slot's count,
 * yields, and writes it back plus one (two at once lose a count), and the most that ever ran at once on one slot is
 * kept.
 */
public final class SectionTally {

    private final AtomicIntegerArray counts;
    private final AtomicIntegerArray inside;
    private final AtomicInteger mostAtOnce = new AtomicInteger();

    /** @param slots how many slots, each to be guarded by its own lock */
    public SectionTally(int slots) {
        counts = new AtomicIntegerArray(slots);
        inside = new AtomicIntegerArray(slots);
    }

    /**
     * One section of {@code slot}: to be called only while holding the slot's lock.
     *
     * @param slot the slot
     */
    public void section(int slot) {
        mostAtOnce.accumulateAndGet(inside.incrementAndGet(slot), Math::max);
        int count = counts.get(slot);
        Thread.yield();
        counts.set(slot, count + 1);
        inside.decrementAndGet(slot);
    }

    /** @return the sections counted over every slot: fewer than were run if two of one slot ran at once */
    public int total() {
        int total = 0;
        for (int slot = 0; slot < counts.length(); slot++) {
            total += counts.get(slot);
        }
        return total;
    }

    /** @return the most sections that ran at once on one slot: 1 if the locks held */
    public int mostAtOnce() {
        return mostAtOnce.get();
    }

    /** Forgets every count, between tests. */
    public void reset() {
        for (int slot = 0; slot < counts.length(); slot++) {
            counts.set(slot, 0);
        }
        mostAtOnce.set(0);
    }
}
