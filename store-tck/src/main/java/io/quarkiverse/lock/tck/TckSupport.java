package io.quarkiverse.lock.tck;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.tck.faults.FaultFixture;
import io.smallrye.mutiny.Uni;

/**
 * What the contracts share: durations, fresh keys and owner ids (each test uses keys of its own, so every test can
 * share one store), and waiting for asynchronous outcomes.
 */
final class TckSupport {

    /** The lease of acquisitions that a test lets run out. */
    static final Duration SHORT_LEASE = Duration.ofMillis(300);
    /** {@link #SHORT_LEASE} in milliseconds, for the store SPI. */
    static final long SHORT = SHORT_LEASE.toMillis();
    /** A lease that no test outlives, in milliseconds. */
    static final long MINUTE = Duration.ofMinutes(1).toMillis();
    /** How long a test waits for one outcome at most: the fault harness's wait, one value for the whole TCK. */
    static final Duration TIMEOUT = FaultFixture.TIMEOUT;

    private TckSupport() {
    }

    /**
     * @param name what the key is for
     * @return a key no other test uses
     */
    static String newKey(String name) {
        return name + "-" + UUID.randomUUID();
    }

    /**
     * @param name what the owner is for
     * @return an owner id no other acquisition has
     */
    static String owner(String name) {
        return name + "-" + UUID.randomUUID();
    }

    /**
     * @return the item, or the failure thrown, within {@link #TIMEOUT}
     */
    static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }

    /**
     * @return the outcome of one attempt that does not wait
     */
    static AcquireResult acquire(LockStore on, String key, String owner, long leaseMillis) {
        return await(on.tryAcquire(key, owner, leaseMillis, false));
    }

    /**
     * @return the outcome of one attempt of a waiting acquisition (which a store with a line puts in line)
     */
    static AcquireResult acquireInLine(LockStore on, String key, String owner, long leaseMillis) {
        return await(on.tryAcquire(key, owner, leaseMillis, true));
    }

    /**
     * @return a new handle on {@code key} that holds the lock: its one attempt, which does not wait, acquired it
     */
    static ReactiveDistributedLock acquired(LockRegistry registry, String key) {
        ReactiveDistributedLock lock = registry.obtain(key);
        assertThat(await(lock.acquireOnce())).isTrue();
        return lock;
    }

    /**
     * @return a new handle on {@code key} that holds the lock with that {@code lease}: its one attempt, which does not
     *         wait, acquired it
     */
    static ReactiveDistributedLock acquired(LockRegistry registry, String key, Duration lease) {
        ReactiveDistributedLock lock = registry.obtain(key);
        assertThat(await(lock.acquire(Duration.ZERO, lease))).isTrue();
        return lock;
    }

    /**
     * Asserts that a new handle on {@code key} acquires the lock within five seconds (attempts that do not wait are
     * repeated): nobody is left holding it.
     *
     * @return the handle, which holds the lock
     */
    static ReactiveDistributedLock acquiredSoon(LockRegistry registry, String key) {
        ReactiveDistributedLock lock = registry.obtain(key);
        eventually(() -> await(lock.acquireOnce()));
        return lock;
    }

    /**
     * Waits up to five seconds for a condition that an asynchronous step (such as a release after a cancellation)
     * makes true, and fails if it does not.
     */
    static void eventually(BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition still false after 5 s").isLessThan(deadline);
            sleep(Duration.ofMillis(20));
        }
    }

    /**
     * @param nanoTime a {@link System#nanoTime()} to sleep until
     */
    static void sleepUntil(long nanoTime) {
        long remaining = nanoTime - System.nanoTime();
        if (remaining > 0) {
            sleep(Duration.ofNanos(remaining));
        }
    }

    /**
     * @param duration how long to sleep; an interrupt fails the test
     */
    static void sleep(Duration duration) {
        try {
            TimeUnit.NANOSECONDS.sleep(duration.toNanos());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
