package io.quarkiverse.lock.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * Benchmarks Quarkus Lock against its peers, side by side in one run. The Redis part ({@link RedisBenchmarks}), on
 * one local redis-server that the benchmark starts itself: uncontended throughput and handoff latency as curves,
 * many waiters on one key, memory against locks held, and the {@code @Locked} overhead. The PostgreSQL part
 * ({@link PostgresBenchmarks}), on one PostgreSQL server it starts
 * itself: uncontended throughput and handoff. The JDBC part ({@link JdbcBenchmarks}), the same on a PostgreSQL and
 * a MariaDB server it starts itself. Runs these three parts, or the ones named ({@code --redis},
 * {@code --postgresql}, {@code --jdbc}); the tracing part ({@link TracingOverhead}, {@code --tracing}) only when named, in a
 * build with
 * {@code -Ptracing -Dquarkus.profile=tracing}; prints the tables and writes them to
 * {@code docs/modules/ROOT/pages/benchmarks.adoc} (or the
 * path given as an argument) with their charts (in the {@code images} folder beside the page's), keeping there the parts
 * this run left out; prints how long each part took. {@link BenchSettings} shortens a run.
 */
@QuarkusMain
public class LockBenchmarks implements QuarkusApplication {

    private static final String PAGE = "docs/modules/ROOT/pages/benchmarks.adoc";
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
     * @param args optionally the parts to run ({@code --redis}, {@code --postgresql}, {@code --jdbc}; all three if
     *        none is named) and
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
            timed("Redis part", () -> new RedisBenchmarks(new RedisBenchmarks.App(locks, target, settings, vertx, redis),
                    server, bench).run(report));
            write(report, file);
        }
        if (parts.isEmpty() || parts.contains("postgresql")) {
            timed("PostgreSQL part", () -> new PostgresBenchmarks(vertx, settings, bench).run(report));
            write(report, file);
        }
        if (parts.isEmpty() || parts.contains("jdbc")) {
            timed("JDBC part", () -> new JdbcBenchmarks(vertx, settings, bench).run(report));
            write(report, file);
        }
        if (parts.contains("tracing")) {
            timed("Tracing part", () -> new TracingOverhead(new RedisBenchmarks.App(locks, target, settings, vertx,
                    redis), bench).run(report));
            write(report, file);
        }
        return 0;
    }

    /** Writes the parts measured so far, so that a part that fails later does not lose them. */
    private static void write(Report report, Path file) throws IOException {
        if (Files.isDirectory(file.toAbsolutePath().getParent())) {
            report.write(file);
            System.out.println("Report written to " + file.toAbsolutePath());
        }
    }

    /** A part of the benchmark. */
    private interface Part {
        void run() throws Exception;
    }

    private static void timed(String name, Part part) throws Exception {
        long start = System.nanoTime();
        part.run();
        System.out.printf("%n%s took %d s%n", name, Duration.ofNanos(System.nanoTime() - start).toSeconds());
    }
}
