package io.quarkiverse.lock.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import com.sun.management.OperatingSystemMXBean;

import io.smallrye.mutiny.Uni;

/**
 * Measures how many operations per second a number of concurrent loops complete: each loop runs the operation again
 * as soon as its previous run ended, until the round ends. Reports the median of several rounds after a warm-up.
 *
 * @param warmUp how long the operation runs before it is measured
 * @param round how long one measured round lasts
 * @param rounds how many rounds are measured
 */
record Throughput(Duration warmUp, Duration round, int rounds) {

    /**
     * Measures several operations round by round, each round starting with the next one in turn, after a warm-up of
     * each, so that none profits from its place (a warmer JIT, a quieter machine).
     *
     * @param concurrency how many loops run at once
     * @param operations the operations, each of loop {@code i}
     * @return the operations per second of each operation in each round: {@code [operation][round]}
     */
    double[][] inTurns(int concurrency, List<IntFunction<Uni<?>>> operations) {
        Round[][] measured = roundsInTurns(concurrency, operations);
        double[][] perSecond = new double[measured.length][rounds];
        for (int k = 0; k < measured.length; k++) {
            for (int r = 0; r < rounds; r++) {
                perSecond[k][r] = measured[k][r].operations() / (round.toNanos() / 1e9);
            }
        }
        return perSecond;
    }

    private Round[][] roundsInTurns(int concurrency, List<IntFunction<Uni<?>>> operations) {
        int count = operations.size();
        operations.forEach(operation -> run(concurrency, operation, warmUp));
        Round[][] measured = new Round[count][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < count; k++) {
                int which = (r + k) % count;
                measured[which][r] = run(concurrency, operations.get(which), round);
            }
        }
        return measured;
    }

    /**
     * Measures two operations in turns ({@link #inTurns}).
     *
     * @param concurrency how many loops run at once
     * @param first the first operation of loop {@code i}
     * @param second the second operation of loop {@code i}
     * @return the operations per second of the first and of the second, the ratio second / first of each round, and
     *         the CPU time this JVM spent per operation of the first and of the second, in µs
     */
    Spread[] compare(int concurrency, IntFunction<Uni<?>> first, IntFunction<Uni<?>> second) {
        Round[][] measured = roundsInTurns(concurrency, List.of(first, second));
        double[][] perSecond = new double[2][rounds];
        double[][] cpuMicros = new double[2][rounds];
        double[] ratios = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                perSecond[k][r] = measured[k][r].operations() / (round.toNanos() / 1e9);
                cpuMicros[k][r] = measured[k][r].cpuNanos() / 1e3 / measured[k][r].operations();
            }
            ratios[r] = perSecond[1][r] / perSecond[0][r];
        }
        return new Spread[] { Spread.of(perSecond[0]), Spread.of(perSecond[1]), Spread.of(ratios),
                Spread.of(cpuMicros[0]), Spread.of(cpuMicros[1]) };
    }

    /**
     * @param operations how many operations a round completed
     * @param cpuNanos the CPU time all threads of this JVM spent during it
     */
    private record Round(long operations, long cpuNanos) {
    }

    private static Round run(int concurrency, IntFunction<Uni<?>> operation, Duration duration) {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        long deadline = System.nanoTime() + duration.toNanos();
        AtomicLong done = new AtomicLong();
        List<CompletableFuture<Void>> loops = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            CompletableFuture<Void> loop = new CompletableFuture<>();
            next(operation, i, deadline, done, loop);
            loops.add(loop);
        }
        CompletableFuture.allOf(loops.toArray(new CompletableFuture[0])).join();
        return new Round(Math.max(1, done.get()), os.getProcessCpuTime() - cpuBefore);
    }

    private static void next(IntFunction<Uni<?>> operation, int loop, long deadline, AtomicLong done,
            CompletableFuture<Void> finished) {
        if (System.nanoTime() >= deadline) {
            finished.complete(null);
            return;
        }
        operation.apply(loop).subscribe().with(ignored -> {
            done.incrementAndGet();
            next(operation, loop, deadline, done, finished);
        }, finished::completeExceptionally);
    }
}
