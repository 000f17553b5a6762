package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.Arrays;

/**
 * How long and how wide the benchmarks run: the published figures use the defaults; system properties shorten a run
 * to check that every library works ({@code -Dbench.concurrency=1,4 -Dbench.warm-up-seconds=1
 * -Dbench.round-seconds=2 -Dbench.rounds=1 -Dbench.contenders=2 -Dbench.handoff-seconds=2 -Dbench.ceiling-requests=5000}).
 *
 * @param concurrency the concurrencies of the uncontended tables ({@code bench.concurrency}, default 1,16,64)
 * @param warmUp the warm-up before each throughput measurement ({@code bench.warm-up-seconds}, default 2)
 * @param round one throughput round ({@code bench.round-seconds}, default 3)
 * @param rounds how many rounds, of which the median is reported ({@code bench.rounds}, default 3)
 * @param contenders how many contenders pass a lock around ({@code bench.contenders}, default 8)
 * @param handoffTime how long they do ({@code bench.handoff-seconds}, default 10)
 * @param ceilingRequests how many requests of each script redis-benchmark sends for the Redis ceiling, five times as
 *        many pipelined ({@code bench.ceiling-requests}, default 200,000)
 */
record BenchSettings(int[] concurrency, Duration warmUp, Duration round, int rounds, int contenders,
        Duration handoffTime, int ceilingRequests) {

    static BenchSettings fromSystemProperties() {
        int[] concurrency = Arrays.stream(System.getProperty("bench.concurrency", "1,16,64").split(","))
                .map(String::trim).mapToInt(Integer::parseInt).toArray();
        return new BenchSettings(concurrency, seconds("bench.warm-up-seconds", 2), seconds("bench.round-seconds", 3),
                Integer.getInteger("bench.rounds", 3), Integer.getInteger("bench.contenders", 8),
                seconds("bench.handoff-seconds", 10), Integer.getInteger("bench.ceiling-requests", 200_000));
    }

    private static Duration seconds(String property, int defaultSeconds) {
        return Duration.ofSeconds(Integer.getInteger(property, defaultSeconds));
    }

    /** @return the largest concurrency, which sizes the libraries' connection and thread pools */
    int maxConcurrency() {
        return Arrays.stream(concurrency).max().orElse(1);
    }

    Throughput throughput() {
        return new Throughput(warmUp, round, rounds);
    }

    Handoff handoff() {
        return new Handoff(contenders, handoffTime, Duration.ofMillis(1));
    }

    /** @return how the throughput tables were measured, for their descriptions */
    String throughputMethod() {
        return "Median of " + rounds + " rounds of " + round.toSeconds() + " s after a " + warmUp.toSeconds()
                + " s warm-up.";
    }

    /** @return how the handoff tables were measured, for their descriptions */
    String handoffMethod() {
        return contenders + " contenders, each standing for a separate instance (its own client or registry), pass one "
                + "lock around for " + handoffTime.toSeconds() + " s, holding it 1 ms. A contender that released asks "
                + "again only after another took the lock, so every handoff wakes a real waiter. Latency is from the release call to the next acquisition's return.";
    }
}
