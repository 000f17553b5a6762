package io.quarkiverse.lock.tck.faults;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.smallrye.mutiny.Uni;

/**
 * A section log kept in this JVM, for a store that cannot be asked who holds a lock (the in-memory store keeps owners
 * to itself): stamps from the clock the store's leases follow, and no probe, so the checker falls back on leases and
 * take-overs to excuse a hold that may have ended.
 */
public final class ClockSectionLog implements SectionLog {

    private final InstantSource clock;
    private final Queue<Section> sections = new ConcurrentLinkedQueue<>();
    private final Queue<OverrideWindow> windows = new ConcurrentLinkedQueue<>();

    /**
     * @param clock the clock of the store's leases
     */
    public ClockSectionLog(InstantSource clock) {
        this.clock = clock;
    }

    private long micros() {
        Instant now = clock.instant();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1_000;
    }

    @Override
    public Uni<Long> now() {
        return Uni.createFrom().item(this::micros);
    }

    @Override
    public Uni<Stamp> start(String key, long token) {
        return Uni.createFrom().item(() -> new Stamp(micros(), Section.UNKNOWN));
    }

    @Override
    public Uni<Section> end(Section started) {
        return Uni.createFrom().item(() -> {
            Section ended = started.endedAt(micros(), Section.UNKNOWN);
            sections.add(ended);
            return ended;
        });
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
