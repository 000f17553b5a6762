package io.quarkiverse.lock.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.springframework.integration.redis.util.RedisLockRegistry;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

/**
 * Benchmarks Quarkus Lock against its peers, side by side in one run on one local redis-server that the benchmark
 * starts itself: uncontended throughput, handoff under contention, heap per held lock, and the {@code @Locked}
 * overhead. Prints the tables and writes them to {@code docs/modules/ROOT/pages/benchmarks.adoc} (or the path given
 * as the first argument).
 */
@QuarkusMain
public class LockBenchmarks implements QuarkusApplication {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration LEASE = Duration.ofMillis(LockLibrary.LEASE_MILLIS);
    private static final int[] CONCURRENCY = { 1, 16, 64 };
    private static final int HELD_LOCKS = 10_000;
    private static RedisServer server;

    @Inject
    LockRegistry locks;

    @Inject
    LockedTarget target;

    @Inject
    LockSettings settings;

    @Inject
    Vertx vertx;

    @Inject
    Redis redis;

    /**
     * Starts a redis-server, points the application at it, and runs the benchmarks.
     *
     * @param args optionally, where to write the report
     */
    public static void main(String... args) {
        try (RedisServer redis = RedisServer.start()) {
            server = redis;
            System.setProperty("quarkus.redis.hosts", redis.uri());
            Quarkus.run(LockBenchmarks.class, args);
        }
    }

    @Override
    public int run(String... args) throws Exception {
        Report report = new Report();
        report.line("Measured " + LocalDate.now() + " on " + Runtime.getRuntime().availableProcessors() + " cores, "
                + System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + ", redis-server "
                + redisVersion() + " on loopback.");
        String redisAddress = "redis://127.0.0.1:" + server.port();

        try (LockLibrary ours = new OurLibrary("Quarkus Lock", locks, vertx, redis, settings, true);
                LockLibrary oursPolling = new OurLibrary("Quarkus Lock, polling only", locks, vertx, redis, settings,
                        false);
                LockLibrary redisson = new RedissonLibrary(redisAddress, 64);
                LockLibrary spring = new SpringLibrary(server.port(), RedisLockRegistry.RedisLockType.SPIN_LOCK, 64);
                LockLibrary springPubSub = new SpringLibrary(server.port(),
                        RedisLockRegistry.RedisLockType.PUB_SUB_LOCK, 64);
                LockLibrary reactorPort = new ReactorPortLibrary(redis)) {
            uncontended(report, ours, redisson, spring);
            handoff(report, List.of(ours, oursPolling, redisson, spring, springPubSub, reactorPort));
            heap(report);
            lockedOverhead(report);
        }
        Path file = Path.of(args.length > 0 ? args[0] : "docs/modules/ROOT/pages/benchmarks.adoc");
        if (Files.isDirectory(file.toAbsolutePath().getParent())) {
            Files.writeString(file, report.asciidoc());
            System.out.println("Report written to " + file.toAbsolutePath());
        }
        return 0;
    }

    private void uncontended(Report report, LockLibrary ours, LockLibrary redisson, LockLibrary spring) {
        Throughput throughput = new Throughput(Duration.ofSeconds(2), Duration.ofSeconds(3), 3);
        RedisBenchmarkCeiling ceiling = new RedisBenchmarkCeiling(server.port(),
                loadScript(RedisLockStore.acquireScriptSource()), loadScript(RedisLockStore.releaseScriptSource()));
        report.section("Uncontended acquire+release pairs per second",
                "Each loop locks a key of its own, so nothing is contended: the cost of a lock. Median of 3 rounds "
                        + "of 3 s after a 2 s warm-up. The ceiling is redis-benchmark running our acquire and release "
                        + "scripts by EVALSHA with the same number of connections (one command in flight per "
                        + "connection); the pipelined ceiling lets each connection send 16 at once, which a client "
                        + "that multiplexes one connection (as Vert.x does) can approach.",
                "concurrency", "Quarkus Lock", "Redisson", "Spring", "ours / Redisson", "ours / Spring",
                "ceiling (redis-benchmark)", "ceiling, -P 16");
        for (int concurrency : CONCURRENCY) {
            double o = throughput.measure(concurrency, i -> ours.acquireAndRelease("u-ours-" + i)).median();
            double r = throughput.measure(concurrency, i -> redisson.acquireAndRelease("u-redisson-" + i)).median();
            double s = throughput.measure(concurrency, i -> spring.acquireAndRelease("u-spring-" + i)).median();
            double c = ceiling.pairsPerSecond(concurrency, 1, 200_000);
            double p = ceiling.pairsPerSecond(concurrency, 16, 1_000_000);
            report.row(Integer.toString(concurrency), rate(o), rate(r), rate(s), ratio(o / r), ratio(o / s), rate(c),
                    rate(p));
        }
    }

    private void handoff(Report report, List<LockLibrary> libraries) throws InterruptedException {
        Handoff handoff = new Handoff(8, Duration.ofSeconds(10), Duration.ofMillis(1));
        report.section("Handoff under contention",
                "8 contenders, each standing for a separate instance (its own client or registry), pass one lock "
                        + "around for 10 s, holding it 1 ms. A contender that released asks again only after another "
                        + "took the lock, so every handoff wakes a real waiter. Latency is from the release call to "
                        + "the next acquisition's return.",
                "library", "handoffs", "p50 ms", "p99 ms", "longest wait ms", "give-ups");
        for (LockLibrary library : libraries) {
            Handoff.Result result = handoff.measure(library, "handoff-" + library.name().replaceAll("\\W", ""));
            report.row(library.name(), Integer.toString(result.handoffs()), millis(result.p50Millis()),
                    millis(result.p99Millis()), millis(result.longestWaitMillis()), Long.toString(result.giveUps()));
        }
    }

    private void heap(Report report) {
        report.section("Heap per " + String.format("%,d", HELD_LOCKS) + " locks held at once",
                "Heap used after full collections: while " + String.format("%,d", HELD_LOCKS) + " locks on "
                        + "distinct keys are held (their handles kept, as a caller would), and after all were "
                        + "released and the handles dropped, against the heap before.",
                "library", "held", "after release");
        long before = HeapFootprint.usedAfterGc();
        List<ReactiveDistributedLock> held = new ArrayList<>(HELD_LOCKS);
        for (int i = 0; i < HELD_LOCKS; i += 500) {
            List<Uni<Boolean>> batch = new ArrayList<>();
            for (int j = i; j < i + 500; j++) {
                ReactiveDistributedLock lock = locks.obtain("heap-" + j);
                held.add(lock);
                batch.add(lock.acquire(Duration.ZERO, Duration.ofMinutes(5)));
            }
            Uni.join().all(batch).andFailFast().await().atMost(WAIT);
        }
        long whileHeld = HeapFootprint.usedAfterGc();
        for (int i = 0; i < HELD_LOCKS; i += 500) {
            List<Uni<Boolean>> batch = new ArrayList<>();
            for (int j = i; j < i + 500; j++) {
                batch.add(held.get(j).release());
            }
            Uni.join().all(batch).andFailFast().await().atMost(WAIT);
        }
        held.clear();
        long afterRelease = HeapFootprint.usedAfterGc();
        report.row("Quarkus Lock", megabytes(whileHeld - before), megabytes(afterRelease - before));
    }

    private void lockedOverhead(Report report) {
        Throughput throughput = new Throughput(Duration.ofSeconds(2), Duration.ofSeconds(3), 3);
        report.section("@Locked overhead",
                "The same empty critical section through the @Locked interceptor and through acquireAndExecute, "
                        + "uncontended (a key per loop).",
                "concurrency", "acquireAndExecute", "@Locked", "@Locked / direct");
        for (int concurrency : CONCURRENCY) {
            double direct = throughput.measure(concurrency, i -> locks.obtain("bench-direct-" + i)
                    .acquireAndExecute(WAIT, LEASE, Uni.createFrom().item(i))).median();
            double locked = throughput.measure(concurrency, target::work).median();
            report.row(Integer.toString(concurrency), rate(direct), rate(locked), ratio(locked / direct));
        }
    }

    private String redisVersion() {
        String info = redis.send(Request.cmd(Command.INFO).arg("server")).toCompletionStage().toCompletableFuture()
                .join().toString();
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("redis_version:")) {
                return line.substring("redis_version:".length()).trim();
            }
        }
        return "(unknown version)";
    }

    /** Loads a script into the server's cache; the server answers with its SHA-1. */
    private String loadScript(String source) {
        return redis.send(Request.cmd(Command.SCRIPT).arg("LOAD").arg(source)).toCompletionStage()
                .toCompletableFuture().join().toString();
    }

    private static String rate(double perSecond) {
        return Double.isNaN(perSecond) ? "n/a" : String.format("%,.0f", perSecond);
    }

    private static String ratio(double value) {
        return String.format("%.2fx", value);
    }

    private static String millis(double value) {
        return Double.isNaN(value) ? "n/a" : String.format("%.2f", value);
    }

    private static String megabytes(long bytes) {
        return String.format("%.2f MB", bytes / 1_048_576.0);
    }

    /** The tables, printed as they are measured and kept for the AsciiDoc report. */
    static final class Report {

        private final StringBuilder adoc = new StringBuilder("= Benchmarks\n\n"
                + "Produced by the benchmark module; see the README for the command. Figures from one run on one "
                + "machine: compare libraries within a table, not across machines.\n\n");
        private boolean tableOpen;

        void line(String text) {
            System.out.println(text);
            adoc.append(text).append("\n\n");
        }

        void section(String title, String description, String... columns) {
            closeTable();
            System.out.println();
            System.out.println("== " + title);
            System.out.println(description);
            System.out.println(String.join(" | ", columns));
            adoc.append("== ").append(title).append("\n\n").append(description).append("\n\n")
                    .append("[options=\"header\"]\n|===\n");
            for (String column : columns) {
                adoc.append("| ").append(column).append(' ');
            }
            adoc.append("\n");
            tableOpen = true;
        }

        void row(String... cells) {
            System.out.println(String.join(" | ", cells));
            adoc.append("\n");
            for (String cell : cells) {
                adoc.append("| ").append(cell).append('\n');
            }
        }

        String asciidoc() {
            closeTable();
            return adoc.toString();
        }

        private void closeTable() {
            if (tableOpen) {
                adoc.append("|===\n\n");
                tableOpen = false;
            }
        }
    }
}
