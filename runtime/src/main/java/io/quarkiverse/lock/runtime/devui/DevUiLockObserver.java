package io.quarkiverse.lock.runtime.devui;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

import jakarta.inject.Singleton;

import io.quarkiverse.lock.runtime.observe.LockObserver;

/**
 * The lock observer behind the Dev UI card: keeps the locks this application holds right now, and wait and hold
 * statistics per lock name, which {@link LockJsonRPCService} serves. A bean in dev and test mode only: it costs a map
 * update per acquisition and release.
 */
@Singleton
public class DevUiLockObserver implements LockObserver {

    private final ConcurrentHashMap<String, HeldLock> held = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Statistics> statistics = new ConcurrentHashMap<>();

    @Override
    public void acquired(String name, String key, String owner, long token, long waitNanos) {
        held.put(key + '\n' + owner, new HeldLock(key, name, owner, token, Instant.now().toString(),
                waitNanos / 1_000_000));
        Statistics stats = statistics(name);
        stats.acquired.increment();
        stats.waitNanos.add(waitNanos);
        stats.longestWaitNanos.accumulate(waitNanos);
    }

    @Override
    public void notAcquired(String name, String key, long waitNanos) {
        Statistics stats = statistics(name);
        stats.notAcquired.increment();
        stats.longestWaitNanos.accumulate(waitNanos);
    }

    @Override
    public void released(String name, String key, String owner, long holdNanos) {
        ended(name, key, owner, holdNanos);
    }

    @Override
    public void leaseExpired(String name, String key, String owner, long holdNanos) {
        ended(name, key, owner, holdNanos);
        statistics(name).leasesExpired.increment();
    }

    private void ended(String name, String key, String owner, long holdNanos) {
        held.remove(key + '\n' + owner);
        Statistics stats = statistics(name);
        stats.holds.increment();
        stats.holdNanos.add(holdNanos);
        stats.longestHoldNanos.accumulate(holdNanos);
    }

    private Statistics statistics(String name) {
        return statistics.computeIfAbsent(name, ignored -> new Statistics());
    }

    /**
     * @return the locks held now by this application's handles, oldest first
     */
    public List<HeldLock> held() {
        return held.values().stream().sorted(Comparator.comparing(HeldLock::since)).toList();
    }

    /**
     * @return wait and hold statistics per lock name, by name
     */
    public List<LockStatistics> statistics() {
        return statistics.entrySet().stream()
                .map(entry -> entry.getValue().snapshot(entry.getKey()))
                .sorted(Comparator.comparing(LockStatistics::name))
                .toList();
    }

    /**
     * A lock held now.
     *
     * @param key the lock key
     * @param name the handle's metrics name
     * @param owner the holder's owner id
     * @param token the fencing token
     * @param since when it was acquired (ISO-8601)
     * @param waitedMillis how long the acquisition waited
     */
    public record HeldLock(String key, String name, String owner, long token, String since, long waitedMillis) {
    }

    /**
     * Statistics of one lock name since the application started; durations in milliseconds, rounded to a tenth.
     *
     * @param name the metrics name
     * @param acquired acquisitions that got the lock
     * @param notAcquired acquisitions that ended without it
     * @param averageWaitMillis average wait of the acquisitions that got it
     * @param longestWaitMillis longest wait of any acquisition
     * @param holds holds that ended
     * @param averageHoldMillis their average length
     * @param longestHoldMillis the longest of them
     * @param leasesExpired holds whose lease ran out while held
     */
    public record LockStatistics(String name, long acquired, long notAcquired, double averageWaitMillis,
            double longestWaitMillis, long holds, double averageHoldMillis, double longestHoldMillis,
            long leasesExpired) {
    }

    private static final class Statistics {
        final LongAdder acquired = new LongAdder();
        final LongAdder notAcquired = new LongAdder();
        final LongAdder waitNanos = new LongAdder();
        final LongAccumulator longestWaitNanos = new LongAccumulator(Math::max, 0);
        final LongAdder holds = new LongAdder();
        final LongAdder holdNanos = new LongAdder();
        final LongAccumulator longestHoldNanos = new LongAccumulator(Math::max, 0);
        final LongAdder leasesExpired = new LongAdder();

        LockStatistics snapshot(String name) {
            long acquiredCount = acquired.sum();
            long holdCount = holds.sum();
            return new LockStatistics(name, acquiredCount, notAcquired.sum(),
                    acquiredCount == 0 ? 0 : millis(waitNanos.sum() / acquiredCount), millis(longestWaitNanos.get()),
                    holdCount, holdCount == 0 ? 0 : millis(holdNanos.sum() / holdCount),
                    millis(longestHoldNanos.get()), leasesExpired.sum());
        }

        /**
         * The one place where the card's durations are rounded: to a tenth of a millisecond, the precision a reader
         * of the table can use ({@code 102.7}, not {@code 102.74804744666666}).
         */
        static double millis(long nanos) {
            return Math.round(nanos / 100_000.0) / 10.0;
        }
    }
}
