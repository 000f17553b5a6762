package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * How long and how wide the benchmarks run: the published figures use the defaults (about 13 minutes on two cores);
 * system properties shorten a run to check that every library works ({@code -Dbench.concurrency=1,4
 * -Dbench.warm-up-seconds=1 -Dbench.round-seconds=1 -Dbench.rounds=1 -Dbench.contenders=2,8
 * -Dbench.handoff-seconds=1 -Dbench.ceiling-requests=2000 -Dbench.waiters=10,100 -Dbench.held-keys=1000,10000}).
 *
 * @param concurrency the concurrencies of the uncontended curves ({@code bench.concurrency}, default 1,4,16,64,256;
 *        PostgreSQL up to 64, as its server takes 300 connections)
 * @param warmUp the warm-up before each throughput measurement ({@code bench.warm-up-seconds}, default 1)
 * @param round one throughput round ({@code bench.round-seconds}, default 2)
 * @param rounds how many runs of every figure, of which the median and the spread are reported
 *        ({@code bench.rounds}, default 3)
 * @param contenders the numbers of instances that pass a lock around ({@code bench.contenders}, default 2,8,32)
 * @param handoffTime how long they do in each run ({@code bench.handoff-seconds}, default 4)
 * @param ceilingRequests how many requests of each script redis-benchmark sends for the Redis ceiling, five times as
 *        many pipelined ({@code bench.ceiling-requests}, default 20,000)
 * @param waiters the numbers of acquisitions that wait for one key in one JVM ({@code bench.waiters}, default
 *        10,100,1000)
 * @param heldKeys the numbers of distinct keys held at once ({@code bench.held-keys}, default
 *        10000,100000,1000000)
 */
record BenchSettings(int[] concurrency, Duration warmUp, Duration round, int rounds, int[] contenders,
        Duration handoffTime, int ceilingRequests, int[] waiters, int[] heldKeys) {

    /** How many instances the handoff of the polling designs has, if the run measures it. */
    private static final int POLLING_CONTENDERS = 8;

    static BenchSettings fromSystemProperties() {
        return new BenchSettings(ints("bench.concurrency", "1,4,16,64,256"), seconds("bench.warm-up-seconds", 1),
                seconds("bench.round-seconds", 2), Integer.getInteger("bench.rounds", 3),
                ints("bench.contenders", "2,8,32"), seconds("bench.handoff-seconds", 4),
                Integer.getInteger("bench.ceiling-requests", 20_000), ints("bench.waiters", "10,100,1000"),
                ints("bench.held-keys", "10000,100000,1000000"));
    }

    private static int[] ints(String property, String defaults) {
        return Arrays.stream(System.getProperty(property, defaults).split(",")).map(String::trim)
                .mapToInt(Integer::parseInt).toArray();
    }

    private static Duration seconds(String property, int defaultSeconds) {
        return Duration.ofSeconds(Integer.getInteger(property, defaultSeconds));
    }

    /** @return the largest concurrency, which sizes the libraries' connection and thread pools */
    int maxConcurrency() {
        return Arrays.stream(concurrency).max().orElse(1);
    }

    /**
     * @param limit the highest concurrency a store takes
     * @return the concurrencies up to it
     */
    int[] concurrencyUpTo(int limit) {
        return IntStream.of(concurrency).filter(c -> c <= limit).toArray();
    }

    Throughput throughput() {
        return new Throughput(warmUp, round, rounds);
    }

    /** @return the handoff of {@code count} instances */
    Handoff handoff(int count) {
        return new Handoff(count, handoffTime, Duration.ofMillis(1));
    }

    /** @return how many instances the single-point handoff tables (the polling designs, PostgreSQL) have */
    int pollingContenders() {
        return IntStream.of(contenders).anyMatch(c -> c == POLLING_CONTENDERS) ? POLLING_CONTENDERS : contenders[0];
    }

    /** @return how the throughput tables were measured, for their descriptions */
    String throughputMethod() {
        return "Median of " + rounds + " rounds of " + round.toSeconds() + " s after a " + warmUp.toSeconds()
                + " s warm-up, with the slowest and the fastest round in brackets.";
    }

    /** @return how the handoff tables were measured, for their descriptions */
    String handoffMethod() {
        return "Contenders, each standing for a separate instance (its own client or registry), pass one lock around "
                + "for " + handoffTime.toSeconds() + " s, holding it 1 ms. A contender that released asks again only "
                + "after another took the lock, so every handoff wakes a real waiter. Latency is from the release "
                + "call to the next acquisition's return. At each number of instances, each library's instances are "
                + "started once and serve all its runs, as a service's instances outlive many handoffs; each takes and "
                + "releases the lock once, then they pass it around unmeasured, a run at a time, until the JIT has "
                + "settled (a run compiled for less than " + HandoffTable.SETTLED_COMPILING_MILLIS
                + " ms; at most " + HandoffTable.WARM_UP_RUNS + " runs), so that connecting and the JIT's first "
                + "compilations are not counted; what it still compiled during a measured run is in the JIT ms column. "
                + "A waiter that the others overtake again and again is served only when they stop asking at the end "
                + "of the run, so a longest wait near the run's length is starvation, cut short by the run. "
                + "Each figure is the median of " + rounds + " runs, with the lowest and the highest run in brackets; "
                + "give-ups are summed over the runs. JIT ms and GC ms are how long this JVM's compilers and garbage "
                + "collectors ran during a run (median of the runs).";
    }
}
