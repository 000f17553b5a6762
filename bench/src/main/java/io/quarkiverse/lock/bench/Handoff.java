package io.quarkiverse.lock.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Contenders standing for separate instances pass one lock around, each holding it about a millisecond. A contender
 * that released asks again only after another one has taken the lock, so every handoff wakes a real waiter (no
 * barging). Measures the time from a release to the next acquisition, and the longest wait of any acquisition. The
 * instances are started once and serve several runs, as a service's instances outlive many handoffs; the time this
 * JVM spent compiling and collecting garbage during a run is noted beside the latencies, the two pauses a 2-core
 * machine shows in the tail.
 *
 * @param contenders how many contenders, each standing for an instance of its own
 * @param duration how long they pass the lock around
 * @param hold how long each holds it
 */
record Handoff(int contenders, Duration duration, Duration hold) {

    /**
     * Starts the instances that pass {@code key} around, and lets each take and release it once, so that connecting and
     * loading scripts are not counted as waiting.
     *
     * @param library the library whose instances to start
     * @param key the lock they pass around
     * @return the instances, to be closed by the caller
     */
    Instances start(HandoffSubject library, String key) {
        // The instances first: starting 32 clients can take longer than a run.
        Instances instances = new Instances(new ArrayList<>());
        try {
            for (int i = 0; i < contenders; i++) {
                instances.contenders().add(library.contender(key, i));
            }
            for (Contender instance : instances.contenders()) {
                instance.acquire();
                instance.release();
            }
        } catch (Exception e) {
            IllegalStateException failure = new IllegalStateException(
                    "a contender of " + library.name() + " could not take the lock alone", e);
            try {
                instances.close();
            } catch (RuntimeException closing) {
                failure.addSuppressed(closing);
            }
            throw failure;
        }
        return instances;
    }

    /**
     * The started instances of one library at one number of instances, serving its runs.
     *
     * @param contenders one per instance
     */
    record Instances(List<Contender> contenders) implements AutoCloseable {

        /**
         * Closes every instance, also when some fail to close.
         *
         * @throws IllegalStateException if some failed, with the others' failures suppressed
         */
        @Override
        public void close() {
            IllegalStateException failure = null;
            for (Contender contender : contenders) {
                try {
                    contender.close();
                } catch (RuntimeException e) {
                    if (failure == null) {
                        failure = new IllegalStateException("an instance did not close", e);
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }

    /**
     * One run: the instances pass their lock around for the duration. They end with the lock free, so that the next run
     * can use them again.
     *
     * @param library the library, for the threads' names
     * @param started the started instances, as many as {@link #contenders}
     * @return the run's figures
     * @throws InterruptedException if interrupted while the contenders ran
     */
    Result measure(HandoffSubject library, Instances started) throws InterruptedException {
        List<Contender> instances = started.contenders();
        // The run's arrays first, so that collecting them is not counted.
        HandoffRun run = new HandoffRun(System.nanoTime() + duration.toNanos(), hold,
                HandoffTimeline.of(duration, hold, contenders));
        long compilingBefore = compilingMillis();
        long collectingBefore = collectingMillis();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < instances.size(); i++) {
            Contender contender = instances.get(i);
            Thread thread = new Thread(() -> run.loop(contender), library.name() + "-contender-" + i);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        long joinBy = System.nanoTime() + duration.toNanos() + JOIN_GRACE.toNanos();
        for (Thread thread : threads) {
            thread.join(Math.max(1, (joinBy - System.nanoTime()) / 1_000_000));
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " still ran " + JOIN_GRACE.toSeconds()
                        + " s after its run ended: the lock may not be free for the next run");
            }
        }
        long compiling = compilingMillis() - compilingBefore;
        long collecting = collectingMillis() - collectingBefore;
        if (run.failure() != null) {
            throw new IllegalStateException("a contender of " + library.name() + " failed", run.failure());
        }
        return run.result(compiling, collecting);
    }

    /** How long after a run's end its contenders may take to finish: a waiter in line gets the lock after the end. */
    private static final Duration JOIN_GRACE = Duration.ofMinutes(2);

    private static long compilingMillis() {
        return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    private static long collectingMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
    }

    /**
     * Where the longest wait of a run went.
     *
     * @param millis how long it was
     * @param turns how many turns it waited for: the holder's when it asked, and each one granted while it waited
     * @param holdingMillis how long of it the lock was held (by the holder when it asked, and by those turns)
     * @param handingOverMillis how long of it the lock was being handed over (from a release call to the next grant)
     * @param longestHoldMillis the longest of those holds (1 ms asked for; the rest is the sleep's overshoot)
     * @param longestHandoffMillis the longest of those handoffs
     */
    record LongestWait(double millis, int turns, double holdingMillis, double handingOverMillis, double longestHoldMillis,
            double longestHandoffMillis) {
    }

    /**
     * @param handoffs how many handoffs were measured
     * @param p50Millis median handoff latency
     * @param p99Millis 99th percentile handoff latency
     * @param p999Millis 99.9th percentile handoff latency
     * @param longestWait the longest any acquisition waited, and where that time went
     * @param giveUps acquisitions whose wait ran out
     * @param compilingMillis how long the JIT compilers of this JVM ran during the run
     * @param collectingMillis how long its garbage collectors ran during the run
     */
    record Result(int handoffs, double p50Millis, double p99Millis, double p999Millis, LongestWait longestWait,
            long giveUps, long compilingMillis, long collectingMillis) {

        /**
         * @return the longest any acquisition waited, in ms
         */
        double longestWaitMillis() {
            return longestWait == null ? Double.NaN : longestWait.millis();
        }
    }
}
