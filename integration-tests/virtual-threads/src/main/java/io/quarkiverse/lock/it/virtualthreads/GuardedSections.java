package io.quarkiverse.lock.it.virtualthreads;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.lock.Locked;

/**
 * Critical sections on a few slots, each guarded by its own lock, that tell on themselves: every section counts
 * itself with a read, a pause and a write (so two sections of one slot at once lose a count), and records how many
 * ran at once on its slot.
 */
@ApplicationScoped
public class GuardedSections {

    /** How many slots, each with its own lock. */
    public static final int SLOTS = 4;

    private final SectionTally tally = new SectionTally(SLOTS);

    /**
     * Runs one section of {@code slot} under the lock {@code vt-<slot>}, on the caller's thread, waiting up to a
     * minute for the lock.
     *
     * @param slot which slot, from 0 to {@link #SLOTS} - 1
     */
    @Locked(key = "vt-{slot}", waitTime = "60s")
    public void section(int slot) {
        tally.section(slot);
    }

    /** @return the tally of the sections run through this bean, and by the REST endpoint */
    public SectionTally tally() {
        return tally;
    }
}
