package io.quarkiverse.lock.bench;

import java.time.Duration;

import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.runtime.observe.LockTracer;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InstanceHandle;

/**
 * The cost of the spans in the {@code @Locked} table: the same empty {@code @Locked} method, uncontended, through two
 * registries on the same Redis client that differ only in their tracer (none, and the extension's OpenTelemetry
 * tracer), measured round by round in turns in one JVM. Needs the {@code tracing} build: {@code -Ptracing
 * -Dquarkus.profile=tracing}, which adds {@code quarkus-opentelemetry} (spans recorded, not exported; the Redis
 * client's own spans off, so that the figures are the lock spans' cost alone).
 */
final class TracingOverhead {

    private final RedisBenchmarks.App app;
    private final BenchSettings bench;

    TracingOverhead(RedisBenchmarks.App app, BenchSettings bench) {
        this.app = app;
        this.bench = bench;
    }

    void run(Report report) {
        SwitchedLockRegistry switched = bean(SwitchedLockRegistry.class);
        LockTracer tracer = bean(LockTracer.class);
        DefaultLockRegistry untraced = registry(LockTracer.NONE);
        DefaultLockRegistry traced = registry(tracer);
        try {
            report.part("tracing");
            report.line(Report.measured() + ", redis-server " + new RedisInfo(app.redis()).version()
                    + " on loopback, quarkus-opentelemetry present.");
            Throughput throughput = bench.throughput();
            report.section("@Locked with tracing on and off",
                    "The empty @Locked method of the @Locked overhead table, uncontended (a key per loop), through "
                            + "two registries that differ only in their tracer: none (quarkus.lock.tracing.enabled="
                            + "false) and the OpenTelemetry tracer (two spans per call, recorded by the SDK with "
                            + "its default sampler, not exported; the Redis client's own spans are off). Measured "
                            + "round by round in turns, each going first in every other round, after a warm-up of "
                            + "both. " + bench.throughputMethod() + " The ratio is the median of the rounds' "
                            + "ratios; CPU per call as in the @Locked overhead table.",
                    "concurrency", "tracing off", "tracing on", "on / off", "CPU µs per call, off",
                    "CPU µs per call, on");
            for (int concurrency : bench.concurrency()) {
                Spread[] compared = throughput.compare(concurrency, i -> {
                    switched.use(untraced);
                    return app.target().work(i);
                }, i -> {
                    switched.use(traced);
                    return app.target().work(i);
                });
                report.row(Integer.toString(concurrency), Report.rate(compared[0]), Report.rate(compared[1]),
                        compared[2].format(Report::ratio), compared[3].format(Report::micros),
                        compared[4].format(Report::micros));
            }
        } finally {
            untraced.close();
            traced.close();
        }
    }

    private DefaultLockRegistry registry(LockTracer tracer) {
        RedisLockStore store = new RedisLockStore(app.vertx(), app.redis(), app.settings().keyPrefix(),
                Duration.ofHours(1).toMillis(), true);
        DefaultLockRegistry registry = new DefaultLockRegistry(store, app.settings(),
                new BackoffWaitStrategy(app.vertx()), new LocalLockStates(), app.vertx(), LockObserver.NONE, tracer);
        registry.start();
        return registry;
    }

    private static <T> T bean(Class<T> type) {
        InstanceHandle<T> handle = Arc.container().instance(type);
        if (!handle.isAvailable()) {
            throw new IllegalStateException("No " + type.getSimpleName() + " bean: build the benchmark with "
                    + "-Ptracing -Dquarkus.profile=tracing to measure the tracing part");
        }
        return handle.get();
    }
}
