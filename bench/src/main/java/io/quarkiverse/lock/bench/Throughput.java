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
     * @param concurrency how many loops run at once
     * @param operation the operation of loop {@code i}
     * @return the median operations per second, and the spread of the rounds
     */
    Spread measure(int concurrency, IntFunction<Uni<?>> operation) {
        run(concurrency, operation, warmUp);
        double[] perSecond = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            perSecond[r] = run(concurrency, operation, round) / (round.toNanos() / 1e9);
        }
        return Spread.of(perSecond);
    }

    /**
     * Measures two operations round by round, alternating which goes first, after a warm-up of both, so that neither
     * profits from running after the other (a warmer JIT, a quieter machine).
     *
     * @param concurrency how many loops run at once
     * @param first the first operation of loop {@code i}
     * @param second the second operation of loop {@code i}
     * @return the operations per second of the first and of the second, and the ratio second / first of each round
     */
    Spread[] compare(int concurrency, IntFunction<Uni<?>> first, IntFunction<Uni<?>> second) {
        run(concurrency, first, warmUp);
        run(concurrency, second, warmUp);
        double[][] perSecond = new double[2][rounds];
        double[] ratios = new double[rounds];
        List<IntFunction<Uni<?>>> operations = List.of(first, second);
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                int which = (r + k) % 2;
                perSecond[which][r] = run(concurrency, operations.get(which), round) / (round.toNanos() / 1e9);
            }
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
