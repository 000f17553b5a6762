package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.Arrays;

/**
 * The acquisitions of one handoff run, in the order they were granted: when each was asked for, granted and released;
 * and what the run's figures are once it ended.
 */
final class HandoffTimeline {

    private final int capacity;
    private final Object monitor = new Object();
    private final long[] askedAt;
    private final long[] acquiredAt;
    private final long[] releasedAt;
    private int acquisitions;

    private HandoffTimeline(int capacity) {
        this.capacity = capacity;
        askedAt = new long[capacity];
        acquiredAt = new long[capacity];
        releasedAt = new long[capacity];
    }

    /**
     * Makes the timeline of a run, sized for as many acquisitions as it can have: each holds the lock at least
     * {@code hold}, and after the deadline each contender takes it at most once more (a waiter already in line).
     *
     * @param duration how long the contenders pass the lock around
     * @param hold how long each holds it
     * @param contenders how many contenders
     * @return an empty timeline
     */
    static HandoffTimeline of(Duration duration, Duration hold, int contenders) {
        return new HandoffTimeline((int) Math.min(Integer.MAX_VALUE,
                duration.toNanos() / Math.max(1, hold.toNanos()) + contenders + 1));
    }

    /**
     * Notes a grant and wakes the contenders waiting for one.
     *
     * @param asked when the acquisition was asked for ({@link System#nanoTime()})
     * @param acquired when it was granted
     * @return the acquisition's place in the timeline
     */
    int granted(long asked, long acquired) {
        synchronized (monitor) {
            int index = acquisitions++;
            if (index < capacity) {
                askedAt[index] = asked;
                acquiredAt[index] = acquired;
            }
            monitor.notifyAll();
            return index;
        }
    }

    /**
     * Notes that acquisition {@code index} is being released now, read only after the run's threads ended.
     *
     * @param index its place, from {@link #granted}
     */
    void released(int index) {
        if (index < capacity) {
            releasedAt[index] = System.nanoTime();
        }
    }

    /**
     * Waits until another acquisition than {@code mine} was granted, so that a contender that released does not take
     * the lock straight back (no barging), or until the deadline.
     *
     * @param mine the place of the caller's last acquisition
     * @param deadline the run's deadline ({@link System#nanoTime()})
     */
    void awaitAnotherGrant(int mine, long deadline) {
        synchronized (monitor) {
            while (acquisitions == mine + 1 && System.nanoTime() < deadline) {
                try {
                    monitor.wait(10);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * @param giveUps acquisitions whose wait ran out
     * @param compilingMillis how long the JIT compilers ran during the run
     * @param collectingMillis how long the garbage collectors ran during the run
     * @return the run's figures
     */
    Handoff.Result result(long giveUps, long compilingMillis, long collectingMillis) {
        synchronized (monitor) {
            int count = Math.min(acquisitions, capacity);
            long[] latencies = new long[Math.max(count - 1, 0)];
            int longest = 0;
            for (int i = 0; i < count; i++) {
                if (i > 0) {
                    latencies[i - 1] = acquiredAt[i] - releasedAt[i - 1];
                }
                if (acquiredAt[i] - askedAt[i] > acquiredAt[longest] - askedAt[longest]) {
                    longest = i;
                }
            }
            long[] sorted = latencies.clone();
            Arrays.sort(sorted);
            return new Handoff.Result(sorted.length, percentile(sorted, 0.50), percentile(sorted, 0.99),
                    percentile(sorted, 0.999), count == 0 ? null : longestWait(longest), giveUps,
                    compilingMillis, collectingMillis);
        }
    }

    /**
     * Splits the wait of acquisition {@code longest} into the turns it waited for (the holder's when it asked, and
     * each one granted while it waited): how long those holders held the lock (the 1 ms sleep and its overshoot)
     * and how long each handoff took.
     */
    private Handoff.LongestWait longestWait(int longest) {
        long holds = 0;
        long handoffs = 0;
        long longestHold = 0;
        long longestHandoff = 0;
        int turns = 0;
        int i = longest - 1;
        for (; i >= 0 && acquiredAt[i + 1] > askedAt[longest]; i--) {
            long from = Math.max(releasedAt[i], askedAt[longest]);
            long handoff = acquiredAt[i + 1] - from;
            long held = from - Math.max(acquiredAt[i], askedAt[longest]);
            handoffs += handoff;
            holds += held;
            longestHandoff = Math.max(longestHandoff, handoff);
            longestHold = Math.max(longestHold, held);
            turns++;
        }
        if (i < 0 && acquiredAt[0] > askedAt[longest]) {
            // Asked before the run's first grant: nobody held the lock, it was being granted.
            long granting = acquiredAt[0] - askedAt[longest];
            handoffs += granting;
            longestHandoff = Math.max(longestHandoff, granting);
        }
        return new Handoff.LongestWait((acquiredAt[longest] - askedAt[longest]) / 1e6, turns, holds / 1e6,
                handoffs / 1e6, longestHold / 1e6, longestHandoff / 1e6);
    }

    private static double percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }
}
