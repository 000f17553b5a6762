package io.quarkiverse.lock.it;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.smallrye.mutiny.Uni;

/**
 * Critical sections on counters: each increments a counter the unsafe way (read, a pause, write), and counts the
 * sections that started while another one on the same counter was running. Without mutual exclusion, increments are
 * lost and overlaps counted.
 */
@ApplicationScoped
public class Sections {

    private static final Duration PAUSE = Duration.ofMillis(1);

    private final ConcurrentHashMap<String, AtomicInteger> inside = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, AtomicInteger> overlaps = new ConcurrentHashMap<>();

    @Inject
    Counters counters;

    /**
     * @param counter the counter
     * @return the counter's new value, once the section ended
     */
    public Uni<Long> increment(String counter) {
        return Uni.createFrom().deferred(() -> {
            if (inside.computeIfAbsent(counter, c -> new AtomicInteger()).incrementAndGet() > 1) {
                overlaps.computeIfAbsent(counter, c -> new AtomicInteger()).incrementAndGet();
            }
            return counters.get(counter)
                    .onItem().delayIt().by(PAUSE)
                    .flatMap(value -> counters.set(counter, value + 1).replaceWith(value + 1));
        }).onTermination().invoke(() -> inside.get(counter).decrementAndGet());
    }

    /**
     * @param counter the counter
     * @return how many sections on it started while another was running: 0 unless the lock failed
     */
    public int overlaps(String counter) {
        AtomicInteger count = overlaps.get(counter);
        return count == null ? 0 : count.get();
    }
}
