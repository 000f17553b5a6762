package io.quarkiverse.lock.tck;

import java.util.concurrent.atomic.AtomicInteger;

import io.smallrye.mutiny.Uni;

/** Counts how many guarded actions run at once. */
final class Overlap {

    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger max = new AtomicInteger();

    <T> Uni<T> guard(Uni<T> action) {
        return action.onSubscription().invoke(() -> max.accumulateAndGet(running.incrementAndGet(), Math::max))
                .onTermination().invoke(running::decrementAndGet);
    }

    int max() {
        return max.get();
    }
}
