package io.quarkiverse.lock.runtime.store.inmemory;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/**
 * The in-memory store's leases follow the monotonic clock the holder's renewal is timed by, not the wall clock: a
 * step of the wall clock, forwards or back, neither frees a held lock nor keeps an expired one. The wall clock and the
 * monotonic time are both moved by the test.
 */
class MonotonicClockTest {

    private static final long LEASE_MILLIS = 10_000;

    private final AtomicReference<Instant> wall = new AtomicReference<>(Instant.parse("2026-12-02T03:00:00Z"));
    private final AtomicLong nanos = new AtomicLong(42);
    private final MonotonicClock clock = new MonotonicClock(wall::get, nanos::get);
    private final InMemoryLockStore store = new InMemoryLockStore(clock);

    @Test
    void theClockStartsAtTheWallTimeAndMovesOnlyWithTheMonotonicTime() {
        Instant start = clock.instant();
        wall.set(wall.get().plus(Duration.ofHours(1)));
        assertThat(clock.instant()).as("a wall clock step moves nothing").isEqualTo(start);
        nanos.addAndGet(Duration.ofMillis(1500).toNanos());
        assertThat(clock.instant()).isEqualTo(start.plusMillis(1500));
        assertThat(start).isEqualTo(Instant.parse("2026-12-02T03:00:00Z"));
    }

    @Test
    void aWallClockStepForwardDoesNotEndALease() {
        assertThat(store.tryAcquire("k", "holder", LEASE_MILLIS, false).await().indefinitely().acquired()).isTrue();

        wall.set(wall.get().plus(Duration.ofHours(1)));
        nanos.addAndGet(Duration.ofMillis(LEASE_MILLIS / 2).toNanos());

        assertThat(store.tryAcquire("k", "other", LEASE_MILLIS, false).await().indefinitely().acquired())
                .as("half the lease gone by the monotonic clock: still held").isFalse();
        nanos.addAndGet(Duration.ofMillis(LEASE_MILLIS).toNanos());
        assertThat(store.tryAcquire("k", "other", LEASE_MILLIS, false).await().indefinitely().acquired())
                .as("the lease gone by the monotonic clock: free").isTrue();
    }

    @Test
    void aWallClockStepBackDoesNotKeepAnExpiredLease() {
        assertThat(store.tryAcquire("k", "holder", LEASE_MILLIS, false).await().indefinitely().acquired()).isTrue();

        wall.set(wall.get().minus(Duration.ofHours(1)));
        nanos.addAndGet(Duration.ofMillis(LEASE_MILLIS + 1).toNanos());

        assertThat(store.tryAcquire("k", "other", LEASE_MILLIS, false).await().indefinitely().acquired())
                .as("the lease gone by the monotonic clock: free").isTrue();
    }
}
