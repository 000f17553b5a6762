package io.quarkiverse.lock.tck.faults;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.ToLongFunction;

import io.smallrye.mutiny.Uni;

/**
 * A section log kept in this JVM: stamps from the clock the store's leases follow and, when the store can tell which
 * token holds a key now (the in-memory store can), whether the section's token held it at each stamp, so the checker
 * sees a section that ran without its lock even when no other holder overlapped it.
 */
public final class ClockSectionLog implements SectionLog {

    private final InstantSource clock;
    private final ToLongFunction<String> liveToken;
    private final Queue<Section> sections = new ConcurrentLinkedQueue<>();
    private final Queue<OverrideWindow> windows = new ConcurrentLinkedQueue<>();

    /**
     * @param clock the clock of the store's leases
     * @param liveToken the token that holds a key in the store now, or a negative number if none does
     */
    public ClockSectionLog(InstantSource clock, ToLongFunction<String> liveToken) {
        this.clock = clock;
        this.liveToken = liveToken;
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
        return Uni.createFrom().item(() -> {
            // Asked before the stamp: not held then means not held at the stamp, as a token never comes back.
            int held = isLive(key, token) ? Section.HELD : Section.NOT_HELD;
            return new Stamp(micros(), held);
        });
    }

    @Override
    public Uni<Section> end(Section started) {
        return Uni.createFrom().item(() -> {
            long time = micros();
            // Asked after the stamp: held then means held at the stamp; not held may be a release just after it.
            int held = isLive(started.key(), started.token()) ? Section.HELD : Section.UNKNOWN;
            Section ended = started.endedAt(time, held);
            sections.add(ended);
            return ended;
        });
    }

    private boolean isLive(String key, long token) {
        return liveToken.applyAsLong(key) == token;
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
