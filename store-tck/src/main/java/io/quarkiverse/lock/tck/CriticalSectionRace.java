package io.quarkiverse.lock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * Workers that run critical sections on one lock key, each incrementing a counter kept in a store the unsafe way
 * (read, a 1 ms pause, write): without mutual exclusion increments are lost and sections overlap.
 *
 * @param overlaps how many times a section started while another was running
 * @param tokensInSectionOrder the fencing token of each section, in the order the sections started
 */
public record CriticalSectionRace(int overlaps, List<Long> tokensInSectionOrder) {

    /**
     * Runs {@code workers} workers of {@code sections} sections each, one key, and waits for all of them.
     *
     * @param locks the registry to lock with
     * @param workers how many workers run at once
     * @param sections how many sections each worker runs, one after the other
     * @param read reads the counter (null when never written)
     * @param write writes the counter
     * @return what the sections saw
     */
    public static CriticalSectionRace run(LockRegistry locks, int workers, int sections, Supplier<Uni<Long>> read,
            Function<Long, Uni<Void>> write) {
        String lockKey = "counter-" + UUID.randomUUID();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Long> tokens = new ArrayList<>();
        List<Uni<Void>> running = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            running.add(Multi.createFrom().range(0, sections)
                    .onItem().transformToUniAndConcatenate(i -> {
                        ReactiveDistributedLock lock = locks.obtain(lockKey);
                        Uni<Void> section = Uni.createFrom().deferred(() -> {
                            if (inside.incrementAndGet() > 1) {
                                overlaps.incrementAndGet();
                            }
                            synchronized (tokens) {
                                tokens.add(lock.fencingToken().orElse(-1));
                            }
                            return read.get()
                                    .onItem().delayIt().by(Duration.ofMillis(1))
                                    .flatMap(value -> write.apply(value == null ? 1 : value + 1));
                        }).onTermination().invoke(inside::decrementAndGet);
                        return lock.acquireAndExecute(Duration.ofSeconds(60), section);
                    })
                    .collect().last().replaceWithVoid());
        }
        Uni.join().all(running).andFailFast().await().atMost(Duration.ofMinutes(5));
        synchronized (tokens) {
            return new CriticalSectionRace(overlaps.get(), List.copyOf(tokens));
        }
    }

    /**
     * Asserts what mutual exclusion means here: no section started while another ran, and every one of the
     * {@code sections} had a fencing token, each higher than the one of the section before it.
     *
     * @param sections how many sections ran
     */
    public void assertExclusiveWithRisingTokens(int sections) {
        assertThat(overlaps).isZero();
        assertThat(tokensInSectionOrder).hasSize(sections)
                .doesNotContain(-1L)
                .isSorted()
                .doesNotHaveDuplicates();
    }
}
