package io.quarkiverse.lock.tck.faults;

import java.util.List;

import io.smallrye.mutiny.Uni;

/**
 * Where the randomized fault harness logs its critical sections, on the store's clock and never through a faulty
 * connection: a section is stamped when it starts (the time, and whether the store holds the lock under the section's
 * token) and appended to the log when it ends (stamped again in the same atomic step). Overriding take-overs are
 * logged apart.
 */
public interface SectionLog {

    /**
     * @return the store's clock, in microseconds
     */
    Uni<Long> now();

    /**
     * Stamps a section's start.
     *
     * @param key the lock key
     * @param token the token the section runs under
     * @return the time and what the store said about the hold
     */
    Uni<Stamp> start(String key, long token);

    /**
     * Stamps a section's end and appends the ended section to the log, in one step.
     *
     * @param started the section as it started (its end fields are ignored)
     * @return the section as logged
     */
    Uni<Section> end(Section started);

    /**
     * Keeps a section that started but never ended (its operation was cancelled or interrupted).
     *
     * @param started the section as it started
     */
    void unfinished(Section started);

    /**
     * Logs an overriding take-over's window.
     *
     * @param window the window
     */
    void overriding(OverrideWindow window);

    /**
     * @return every ended section and every unfinished one whose end was never logged
     */
    List<Section> sections();

    /**
     * @return every overriding window
     */
    List<OverrideWindow> overridingWindows();

    /**
     * A stamp of the store's clock, with what the store said about a hold at that moment.
     *
     * @param time the store's clock, in microseconds
     * @param held {@link Section#HELD}, {@link Section#NOT_HELD} or {@link Section#UNKNOWN}
     */
    record Stamp(long time, int held) {
    }
}
