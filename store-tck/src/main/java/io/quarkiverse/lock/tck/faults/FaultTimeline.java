package io.quarkiverse.lock.tck.faults;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The faults injected during a run, each with when it happened, for the report: which faults were active around a
 * violation. Times come from this host's clock, which is the clock a store on this host reads, so they can be set
 * beside the sections' times; the verdict never uses them.
 */
public final class FaultTimeline {

    private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();

    /**
     * @param instance the instance whose connection it hit
     * @param what what was done
     */
    public void add(int instance, String what) {
        events.add(new Event(ClockSectionLog.micros(Instant.now()), instance, what));
    }

    /**
     * @param from the start of the span, microseconds
     * @param to its end
     * @return the events in that span, in order
     */
    public List<Event> between(long from, long to) {
        List<Event> found = new ArrayList<>();
        for (Event event : events) {
            if (event.time >= from && event.time <= to) {
                found.add(event);
            }
        }
        found.sort((a, b) -> Long.compare(a.time, b.time));
        return found;
    }

    /**
     * One fault.
     *
     * @param time when, in microseconds
     * @param instance the instance it hit
     * @param what what was done
     */
    public record Event(long time, int instance, String what) {
    }
}
