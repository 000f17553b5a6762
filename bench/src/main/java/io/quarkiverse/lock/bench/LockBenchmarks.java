package io.quarkiverse.lock.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
 * Benchmarks Quarkus Lock against its peers, side by side in one run. The Redis part, on one local redis-server that
 * the benchmark starts itself: uncontended throughput, handoff under contention, heap per held lock, and the
 * {@code @Locked} overhead. The PostgreSQL part ({@link PostgresBenchmarks}), on one PostgreSQL server it starts
 * itself: uncontended throughput and handoff. Runs both parts, or the ones named ({@code --redis},
 * {@code --postgresql}); prints the tables and writes them to {@code docs/modules/ROOT/pages/benchmarks.adoc} (or the
 * path given as an argument), keeping there the parts this run left out. {@link BenchSettings} shortens a run.
 */
@QuarkusMain
public class LockBenchmarks implements QuarkusApplication {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration LEASE = Duration.ofMillis(LockLibrary.LEASE_MILLIS);
    private static final String PAGE = "docs/modules/ROOT/pages/benchmarks.adoc";
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

    private final BenchSettings bench = BenchSettings.fromSystemProperties();

    /**
     * Starts a redis-server, points the application at it, and runs the benchmarks.
     *
     * @param args optionally the parts to run ({@code --redis}, {@code --postgresql}; both if none is named) and
     *        where to write the report
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
        List<String> parts = new ArrayList<>();
        Path file = Path.of(PAGE);
        for (String arg : args) {
            if (arg.startsWith("--")) {
                if (!Report.PARTS.contains(arg.substring(2))) {
                    throw new IllegalArgumentException(arg + " is no part of the benchmark: name --"
                            + String.join(" or --", Report.PARTS));
                }
                parts.add(arg.substring(2));
            } else {
                file = Path.of(arg);
            }
        }
        Report report = new Report();
        if (parts.isEmpty() || parts.contains("redis")) {
            redisPart(report);
        }
        if (parts.isEmpty() || parts.contains("postgresql")) {
            new PostgresBenchmarks(vertx, settings, bench).run(report);
        }
        if (Files.isDirectory(file.toAbsolutePath().getParent())) {
            report.write(file);
            System.out.println("Report written to " + file.toAbsolutePath());
        }
        return 0;
    }

    private void redisPart(Report report) throws InterruptedException {
        report.part("redis");
        report.line(Report.measured() + ", redis-server " + redisVersion() + " on loopback.");
        String redisAddress = "redis://127.0.0.1:" + server.port();
        int connections = bench.maxConcurrency();

        try (LockLibrary ours = OurLibrary.onRedis("Quarkus Lock", locks, vertx, redis, settings, true);
                LockLibrary oursPolling = OurLibrary.onRedis("Quarkus Lock, polling only", locks, vertx, redis,
                        settings, false);
                LockLibrary redisson = new RedissonLibrary(redisAddress, connections);
                LockLibrary spring = new SpringLibrary(server.port(), RedisLockRegistry.RedisLockType.SPIN_LOCK,
                        connections);
                LockLibrary springPubSub = new SpringLibrary(server.port(),
                        RedisLockRegistry.RedisLockType.PUB_SUB_LOCK, connections);
                LockLibrary reactorPort = new ReactorPortLibrary(redis)) {
            uncontended(report, ours, redisson, spring);
            report.handoffTable("Handoff under contention", bench.handoffMethod(), bench.handoff(),
                    List.of(ours, oursPolling, redisson, spring, springPubSub, reactorPort));
            heap(report);
            lockedOverhead(report);
        }
    }

    private void uncontended(Report report, LockLibrary ours, LockLibrary redisson, LockLibrary spring) {
        Throughput throughput = bench.throughput();
        RedisBenchmarkCeiling ceiling = new RedisBenchmarkCeiling(server.port(),
                loadScript(RedisLockStore.acquireScriptSource()), loadScript(RedisLockStore.releaseScriptSource()));
        report.section("Uncontended acquire+release pairs per second",
                "Each loop locks a key of its own, so nothing is contended: the cost of a lock. "
                        + bench.throughputMethod() + " The ceiling is redis-benchmark running our acquire and release "
                        + "scripts by EVALSHA with the same number of connections (one command in flight per "
                        + "connection); the pipelined ceiling lets each connection send 16 at once, which a client "
                        + "that multiplexes one connection (as Vert.x does) can approach.",
                "concurrency", "Quarkus Lock", "Redisson", "Spring", "ours / Redisson", "ours / Spring",
                "ceiling (redis-benchmark)", "ceiling, -P 16");
        for (int concurrency : bench.concurrency()) {
            double o = throughput.measure(concurrency, i -> ours.acquireAndRelease("u-ours-" + i)).median();
            double r = throughput.measure(concurrency, i -> redisson.acquireAndRelease("u-redisson-" + i)).median();
            double s = throughput.measure(concurrency, i -> spring.acquireAndRelease("u-spring-" + i)).median();
            double c = ceiling.pairsPerSecond(concurrency, 1, bench.ceilingRequests());
            double p = ceiling.pairsPerSecond(concurrency, 16, bench.ceilingRequests() * 5);
            report.row(Integer.toString(concurrency), Report.rate(o), Report.rate(r), Report.rate(s), Report.ratio(o / r),
                    Report.ratio(o / s), Report.rate(c),
                    Report.rate(p));
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
        report.row("Quarkus Lock", Report.megabytes(whileHeld - before), Report.megabytes(afterRelease - before));
    }

    private void lockedOverhead(Report report) {
        Throughput throughput = bench.throughput();
        report.section("@Locked overhead",
                "The same empty critical section through the @Locked interceptor and through acquireAndExecute, "
                        + "uncontended (a key per loop).",
                "concurrency", "acquireAndExecute", "@Locked", "@Locked / direct");
        for (int concurrency : bench.concurrency()) {
            double direct = throughput.measure(concurrency, i -> locks.obtain("bench-direct-" + i)
                    .acquireAndExecute(WAIT, LEASE, Uni.createFrom().item(i))).median();
            double locked = throughput.measure(concurrency, target::work).median();
            report.row(Integer.toString(concurrency), Report.rate(direct), Report.rate(locked), Report.ratio(locked / direct));
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
}
