package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Uni;

/**
 * What holding many locks at once costs: that many distinct keys taken in batches and held (their handles kept, as a
 * caller would), then released and their handles dropped. JVM heap after full collections and the server's
 * {@code used_memory}, each per key against before, while held and after release; the keys the store keeps after a
 * release (its fencing counters) are deleted between runs.
 *
 * @param report where the table and the chart go
 * @param bench how many keys, how many runs
 * @param info the server's memory
 * @param locks the registry whose locks are held
 */
record HeldLocks(Report report, BenchSettings bench, RedisInfo info, LockRegistry locks) {

    /** How many acquisitions or releases are in flight at once: within the Redis client's pool and its queue. */
    private static final int BATCH = 1_000;
    private static final Duration WAIT = Duration.ofSeconds(30);

    void measure() {
        report.section("Memory per lock held, Quarkus Lock", "Distinct keys locked at once and held (their handles kept, "
                + "as a caller would), then released and the handles dropped. JVM heap used after full collections "
                + "and Redis used_memory, against before, in bytes per key. After a release the store keeps each "
                + "key's fencing counter (so that a later holder's token is higher), which is what stays in Redis; "
                + "the benchmark deletes them between runs. Median of " + bench.rounds() + " runs, lowest and "
                + "highest in brackets.", "keys", "heap per key held", "heap per key after release",
                "Redis per key held", "Redis per key after release");
        int[] counts = bench.heldKeys();
        double[][] medians = new double[4][counts.length];
        for (int c = 0; c < counts.length; c++) {
            double[][] runs = new double[4][bench.rounds()];
            for (int r = 0; r < bench.rounds(); r++) {
                double[] run = run(counts[c], "held-" + r + "-");
                for (int m = 0; m < 4; m++) {
                    runs[m][r] = run[m];
                }
            }
            String[] cells = new String[5];
            cells[0] = String.format("%,d", counts[c]);
            for (int m = 0; m < 4; m++) {
                Spread spread = Spread.of(runs[m]);
                medians[m][c] = spread.median();
                cells[m + 1] = spread.format(bytes -> String.format("%,.0f B", bytes));
            }
            report.row(cells);
        }
        double[] xs = Arrays.stream(counts).asDoubleStream().toArray();
        SvgChart chart = SvgChart.of("Memory per lock held, Quarkus Lock", "keys held at once", "bytes per key", false)
                .line("JVM heap, held", 0, 0, xs, medians[0])
                .line("JVM heap, after release", 0, 1, xs, medians[1])
                .line("Redis, held", 1, 0, xs, medians[2])
                .line("Redis, after release", 1, 1, xs, medians[3]);
        report.chart("memory-per-key", "Heap and Redis memory per key, held and after release, against keys held",
                chart);
    }

    /** @return heap per key held, heap per key after release, Redis per key held, Redis per key after release */
    private double[] run(int count, String prefix) {
        info.flush();
        long heapBefore = HeapFootprint.usedAfterGc();
        long redisBefore = info.usedMemory();
        List<ReactiveDistributedLock> held = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            held.add(locks.obtain(prefix + i));
        }
        inBatches(held, lock -> lock.acquire(Duration.ZERO, Duration.ofMinutes(10)).replaceWithVoid());
        long heapHeld = HeapFootprint.usedAfterGc();
        long redisHeld = info.usedMemory();
        inBatches(held, lock -> lock.release().replaceWithVoid());
        held.clear();
        long heapAfter = HeapFootprint.usedAfterGc();
        long redisAfter = info.usedMemory();
        info.flush();
        return new double[] { (heapHeld - heapBefore) / (double) count, (heapAfter - heapBefore) / (double) count,
                (redisHeld - redisBefore) / (double) count, (redisAfter - redisBefore) / (double) count };
    }

    private static void inBatches(List<ReactiveDistributedLock> held,
            Function<ReactiveDistributedLock, Uni<Void>> operation) {
        for (int from = 0; from < held.size(); from += BATCH) {
            List<Uni<Void>> batch = new ArrayList<>(BATCH);
            for (ReactiveDistributedLock lock : held.subList(from, Math.min(held.size(), from + BATCH))) {
                batch.add(operation.apply(lock));
            }
            Uni.join().all(batch).andFailFast().await().atMost(WAIT);
        }
    }
}
