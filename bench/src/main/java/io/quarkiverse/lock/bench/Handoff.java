package io.quarkiverse.lock.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Contenders standing for separate instances pass one lock around, each holding it about a millisecond. A contender
 * that released asks again only after another one has taken the lock, so every handoff wakes a real waiter (no
 * barging). Measures the time from a release to the next acquisition, and the longest wait of any acquisition. Each
 * contender takes and releases the lock once before the run, so that connecting and loading scripts are not counted
 * as waiting; and the time this JVM spent compiling and collecting garbage during the run is noted beside the
 * latencies, the two pauses a 2-core machine shows in the tail.
 *
 * @param contenders how many contenders, each standing for an instance of its own
 * @param duration how long they pass the lock around
 * @param hold how long each holds it
 */
record Handoff(int contenders, Duration duration, Duration hold) {

    Result measure(HandoffSubject library, String key) throws InterruptedException {
        // The instances first: starting 32 clients can take longer than the run itself.
        List<Contender> instances = new ArrayList<>();
        for (int i = 0; i < contenders; i++) {
            instances.add(library.contender(key, i));
        }
        for (Contender instance : instances) {
            try {
                instance.acquire();
                instance.release();
            } catch (Exception e) {
                throw new IllegalStateException("a contender of " + library.name() + " could not take the lock alone", e);
            }
        }
        long compilingBefore = compilingMillis();
        long collectingBefore = collectingMillis();
        Run run = new Run(System.nanoTime() + duration.toNanos());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < contenders; i++) {
            Contender contender = instances.get(i);
            Thread thread = new Thread(() -> run.loop(contender), library.name() + "-contender-" + i);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(Duration.ofMinutes(2).toMillis());
        }
        long compiling = compilingMillis() - compilingBefore;
        long collecting = collectingMillis() - collectingBefore;
        instances.forEach(Contender::close);
        return run.result(compiling, collecting);
    }

    private static long compilingMillis() {
        return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    private static long collectingMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
    }

    private final class Run {

        private final long deadline;
        private final Object monitor = new Object();
        private final AtomicLong acquisitions = new AtomicLong();
        private final AtomicLong giveUps = new AtomicLong();
        private final long[] handoffs = new long[1_000_000];
        private int handoffCount;
        private long maxWaitNanos;
        private volatile long releasedAt;

        Run(long deadline) {
            this.deadline = deadline;
        }

        void loop(Contender contender) {
            while (System.nanoTime() < deadline) {
                long askedAt = System.nanoTime();
                try {
                    contender.acquire();
                } catch (Exception e) {
                    giveUps.incrementAndGet();
                    continue;
                }
                long acquiredAt = System.nanoTime();
                long mine = record(askedAt, acquiredAt);
                try {
                    Thread.sleep(hold.toMillis(), (int) (hold.toNanosPart() % 1_000_000));
                    releasedAt = System.nanoTime();
                    contender.release();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                awaitAnotherAcquisition(mine);
            }
        }

        private long record(long askedAt, long acquiredAt) {
            synchronized (monitor) {
                long released = releasedAt;
                if (released != 0 && handoffCount < handoffs.length) {
                    handoffs[handoffCount++] = acquiredAt - released;
                }
                maxWaitNanos = Math.max(maxWaitNanos, acquiredAt - askedAt);
                long count = acquisitions.incrementAndGet();
                monitor.notifyAll();
                return count;
            }
        }

        private void awaitAnotherAcquisition(long mine) {
            synchronized (monitor) {
                while (acquisitions.get() == mine && System.nanoTime() < deadline) {
                    try {
                        monitor.wait(10);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
        }

        Result result(long compilingMillis, long collectingMillis) {
            synchronized (monitor) {
                long[] sorted = Arrays.copyOf(handoffs, handoffCount);
                Arrays.sort(sorted);
                return new Result(handoffCount, percentile(sorted, 0.50), percentile(sorted, 0.99),
                        percentile(sorted, 0.999), maxWaitNanos / 1e6, giveUps.get(), compilingMillis,
                        collectingMillis);
            }
        }

        private double percentile(long[] sorted, double p) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
        }
    }

    /**
     * @param handoffs how many handoffs were measured
     * @param p50Millis median handoff latency
     * @param p99Millis 99th percentile handoff latency
     * @param p999Millis 99.9th percentile handoff latency
     * @param longestWaitMillis the longest any acquisition waited
     * @param giveUps acquisitions whose wait ran out
     * @param compilingMillis how long the JIT compilers of this JVM ran during the run
     * @param collectingMillis how long its garbage collectors ran during the run
     */
    record Result(int handoffs, double p50Millis, double p99Millis, double p999Millis, double longestWaitMillis, long giveUps,
            long compilingMillis, long collectingMillis) {
    }
}
