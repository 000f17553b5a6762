package io.quarkiverse.lock.tck.faults;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

import io.smallrye.mutiny.Uni;

/**
 * A section log kept in this JVM: stamps from the clock the store's leases follow (a clock of this JVM, or the
 * server's, read through a clean connection) and whether the section's token held the lock at each stamp, asked of
 * the store by a {@link HoldProbe}, so the checker sees a section that ran without its lock even when no other holder
 * overlapped it. The probe is asked before the start stamp and after the end stamp: a hold, once lost, never comes
 * back under the same token, so a hold missing before the start stamp was missing at it, and a hold found after the
 * end stamp was there at it.
 */
public final class ClockSectionLog implements SectionLog {

    private final Supplier<Uni<Long>> clock;
    private final HoldProbe probe;
    private final Queue<Section> sections = new ConcurrentLinkedQueue<>();
    private final Queue<OverrideWindow> windows = new ConcurrentLinkedQueue<>();

    /**
     * @param clock the clock of the store's leases
     * @param liveToken the token that holds a key in the store now, or a negative number if none does
     */
    public ClockSectionLog(InstantSource clock, ToLongFunction<String> liveToken) {
        this(() -> Uni.createFrom().item(() -> micros(clock.instant())),
                (key, token) -> Uni.createFrom().item(() -> liveToken.applyAsLong(key) == token));
    }

    /**
     * @param clock reads the clock of the store's leases, in microseconds; never through a faulty connection
     * @param probe asks the store whether a key is held under a token; never through a faulty connection
     */
    public ClockSectionLog(Supplier<Uni<Long>> clock, HoldProbe probe) {
        this.clock = clock;
        this.probe = probe;
    }

    /**
     * @param instant a time
     * @return that time in microseconds since the epoch, as the section log keeps it
     */
    public static long micros(Instant instant) {
        return instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1_000;
    }

    @Override
    public Uni<Long> now() {
        return Uni.createFrom().deferred(clock::get);
    }

    @Override
    public Uni<Stamp> start(String key, long token) {
        // Asked before the stamp: not held then means not held at the stamp, as a token never comes back.
        return Uni.createFrom().deferred(() -> probe.holds(key, token))
                .flatMap(held -> now().map(time -> new Stamp(time, held ? Section.HELD : Section.NOT_HELD)));
    }

    @Override
    public Uni<Section> end(Section started) {
        // Asked after the stamp: held then means held at the stamp; not held may be a release just after it.
        return now().flatMap(time -> probe.holds(started.key(), started.token()).map(held -> {
            Section ended = started.endedAt(time, held ? Section.HELD : Section.UNKNOWN);
            sections.add(ended);
            return ended;
        }));
    }

    @Override
    public void unfinished(Section started) {
        sections.add(started);
    }

    @Override
    public void overriding(OverrideWindow window) {
        windows.add(window);
    }

    @Override
    public List<Section> sections() {
        return new ArrayList<>(sections);
    }

    @Override
    public List<OverrideWindow> overridingWindows() {
        return new ArrayList<>(windows);
    }
}
