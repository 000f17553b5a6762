package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

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
        int count = operations.size();
        operations.forEach(operation -> run(concurrency, operation, warmUp));
        double[][] perSecond = new double[count][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < count; k++) {
                int which = (r + k) % count;
                perSecond[which][r] = run(concurrency, operations.get(which), round) / (round.toNanos() / 1e9);
            }
        }
        return perSecond;
    }

    /**
     * Measures two operations in turns ({@link #inTurns}).
     *
     * @param concurrency how many loops run at once
     * @param first the first operation of loop {@code i}
     * @param second the second operation of loop {@code i}
     * @return the operations per second of the first and of the second, and the ratio second / first of each round
     */
    Spread[] compare(int concurrency, IntFunction<Uni<?>> first, IntFunction<Uni<?>> second) {
        double[][] perSecond = inTurns(concurrency, List.of(first, second));
        double[] ratios = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            ratios[r] = perSecond[1][r] / perSecond[0][r];
        }
        return new Spread[] { Spread.of(perSecond[0]), Spread.of(perSecond[1]), Spread.of(ratios) };
    }

    private static long run(int concurrency, IntFunction<Uni<?>> operation, Duration duration) {
        long deadline = System.nanoTime() + duration.toNanos();
        AtomicLong done = new AtomicLong();
        List<CompletableFuture<Void>> loops = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            CompletableFuture<Void> loop = new CompletableFuture<>();
            next(operation, i, deadline, done, loop);
            loops.add(loop);
        }
        CompletableFuture.allOf(loops.toArray(new CompletableFuture[0])).join();
        return done.get();
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
