package io.quarkiverse.lock.runtime.store.inmemory;

import java.time.Instant;
import java.time.InstantSource;
import java.util.function.LongSupplier;

/**
 * The in-memory store's time: the wall clock read once, at creation, then moved on by {@link System#nanoTime()}. A
 * lease is measured by the same clock as the holder's renewal, so a step of the wall clock (an NTP correction, a
 * virtual machine resumed, a manual change) neither ends leases early, which would grant a lock its holder still
 * believes it holds, nor keeps them past their end. The instants it gives drift from the wall clock by every step
 * taken since, which matters only for showing them.
 */
public final class MonotonicClock implements InstantSource {

    private final Instant start;
    private final long startNanos;
    private final LongSupplier nanos;

    /**
     * @param wall the wall clock, read once now
     * @param nanos the monotonic time in nanoseconds ({@link System#nanoTime()} outside tests)
     */
    public MonotonicClock(InstantSource wall, LongSupplier nanos) {
        this.nanos = nanos;
        this.startNanos = nanos.getAsLong();
        this.start = wall.instant();
    }

    /**
     * @return a clock starting at the system's wall time now, moved on by {@link System#nanoTime()}
     */
    public static MonotonicClock system() {
        return new MonotonicClock(InstantSource.system(), System::nanoTime);
    }

    /**
     * @return the wall time at creation plus the monotonic time elapsed since
     */
    @Override
    public Instant instant() {
        return start.plusNanos(nanos.getAsLong() - startNanos);
    }
}
