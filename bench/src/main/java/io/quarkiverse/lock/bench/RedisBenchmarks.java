package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.stream.IntStream;

import org.springframework.integration.redis.util.RedisLockRegistry;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;

/**
 * The Redis part, on the redis-server the benchmark started: uncontended pairs per second against concurrency beside
 * redis-benchmark's ceilings, handoff latency against contending instances, many waiters on one key, memory against
 * locks held, and the {@code @Locked} overhead. Every peer's clients are closed at its end.
 *
 * @param app the application's registry, target, settings, Vert.x and Redis client
 * @param server the redis-server
 * @param bench how long and how wide
 */
record RedisBenchmarks(App app, RedisServer server, BenchSettings bench) {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration LEASE = Duration.ofMillis(LockLibrary.LEASE_MILLIS);

    /**
     * What the Redis part uses of the application.
     *
     * @param locks the application's registry
     * @param target the {@code @Locked} bean
     * @param settings the lock settings
     * @param vertx the application's Vert.x
     * @param redis the application's Redis client
     */
    record App(LockRegistry locks, LockedTarget target, LockSettings settings, Vertx vertx, Redis redis) {
    }

    void run(Report report) throws Exception {
        RedisInfo info = new RedisInfo(app.redis());
        report.part("redis");
        report.line(Report.measured() + ", redis-server " + info.version() + " on loopback.");
        String address = "redis://127.0.0.1:" + server.port();
        int connections = bench.maxConcurrency();
        // The handoff's instances hold two connections each (commands, release subscription): a client of their
        // own, so that they do not crowd the application's pool, which the uncontended curve measures.
        Redis instances = Redis.createClient(app.vertx(), new RedisOptions().setConnectionString(address)
                .setMaxPoolSize(2 * IntStream.of(bench.contenders()).max().orElse(1) + 8).setMaxPoolWaiting(1024));
        try {
            try (LockLibrary ours = OurLibrary.onRedis("Quarkus Lock", app.locks(), app.vertx(), instances,
                    app.settings(), true);
                    LockLibrary oursPolling = OurLibrary.onRedis("Quarkus Lock, polling only", app.locks(), app.vertx(),
                            instances, app.settings(), false);
                    LockLibrary redisson = new RedissonLibrary(address, connections);
                    LockLibrary spring = new SpringLibrary(server.port(), RedisLockRegistry.RedisLockType.SPIN_LOCK,
                            connections);
                    LockLibrary springPubSub = new SpringLibrary(server.port(),
                            RedisLockRegistry.RedisLockType.PUB_SUB_LOCK, connections);
                    LockLibrary reactorPort = new ReactorPortLibrary(app.redis());
                    HandoffSubject floor = new PubSubFloor(app.vertx(), address)) {
                uncontended(report, info, ours, redisson, spring);
                HandoffTable handoff = new HandoffTable(report, bench);
                handoff.measure("Handoff latency against contending instances", " The libraries that wait for a "
                        + "release message, and two floors that are no distributed locks: the least a handoff through "
                        + "Redis costs (the line kept in the JVM, one PUBLISH to the next waiter's own channel, no "
                        + "script, no claim), and the floor this machine's scheduler sets (a fair lock inside the JVM "
                        + "passed around by the same threads: one thread wake-up, no network). The polling ones "
                        + "follow at " + bench.pollingContenders() + " instances.",
                        bench.contenders(), List.of(ours, redisson, springPubSub, floor, new MachineFloor()),
                        "handoff-latency");
                handoff.measure("Handoff of the polling designs", " Designs that wait by polling, at "
                        + bench.pollingContenders() + " instances only: their latency is set by how often they ask "
                        + "(Spring's SPIN_LOCK and the Reactor-port design every 100 ms, Quarkus Lock without release "
                        + "messages with a growing backoff), not by the number of instances.",
                        new int[] { bench.pollingContenders() },
                        List.of(oursPolling, spring, reactorPort), null);
                new LocalWaiters(report, bench, info).measure(List.of(ours, redisson, springPubSub, spring),
                        "Quarkus Lock queues a key's waiters of one JVM in a local line, and only its first asks Redis, "
                                + "woken by the release message. Redisson's waiters, each with an owner id of its own, "
                                + "share the key's subscription and retry when a release message comes or the lease "
                                + "runs out. Spring's registry queues its threads on a local lock per key, and only the "
                                + "thread holding it asks Redis (SPIN_LOCK: every 100 ms; PUB_SUB_LOCK: on a release "
                                + "message); Spring's waiters are threads, one per waiter.");
            }
        } finally {
            instances.close();
        }
        new HeldLocks(report, bench, info, app.locks()).measure();
        lockedOverhead(report);
    }

    private void uncontended(Report report, RedisInfo info, LockLibrary ours, LockLibrary redisson,
            LockLibrary spring) {
        RedisBenchmarkCeiling ceiling = new RedisBenchmarkCeiling(server.port(),
                info.loadScript(RedisLockStore.acquireScriptSource()),
                info.loadScript(RedisLockStore.releaseScriptSource()));
        new UncontendedCurve(report, bench).measure("Uncontended acquire+release pairs per second", " Spring's "
                + "lock type makes no difference without contention. The ceiling is redis-benchmark running our "
                + "acquire and release scripts by EVALSHA with the same number of connections (one command in flight "
                + "per connection), " + bench.rounds() + " runs; the pipelined ceiling lets each connection send 16 at "
                + "once, which a client that multiplexes one connection (as Vert.x does) can approach.",
                "uncontended-pairs", bench.concurrency(), List.of(ours, redisson, spring),
                List.of(new UncontendedCurve.Column("ceiling (redis-benchmark)",
                        loops -> ceiling(() -> ceiling.pairsPerSecond(loops, 1, bench.ceilingRequests()))),
                        new UncontendedCurve.Column("ceiling, -P 16",
                                loops -> ceiling(() -> ceiling.pairsPerSecond(loops, 16, bench.ceilingRequests() * 5)))));
    }

    private Spread ceiling(DoubleSupplier run) {
        double[] runs = new double[bench.rounds()];
        for (int r = 0; r < runs.length; r++) {
            runs[r] = run.getAsDouble();
        }
        return Spread.of(runs);
    }

    private void lockedOverhead(Report report) {
        Throughput throughput = bench.throughput();
        report.section("@Locked overhead",
                "The same empty critical section through the @Locked interceptor and through acquireAndExecute, "
                        + "uncontended (a key per loop), measured round by round in turns, each going first in every "
                        + "other round, after a warm-up of both. " + bench.throughputMethod()
                        + " The ratio is the median of the rounds' ratios. CPU per call is the CPU time all threads of "
                        + "the benchmark's JVM spent in a round (the client's side; redis-server runs apart), divided by "
                        + "the calls it completed: what the interceptor adds to a call, which a machine whose cores "
                        + "Redis shares turns into fewer calls per second.",
                "concurrency", "acquireAndExecute", "@Locked", "@Locked / direct", "CPU µs per call, direct",
                "CPU µs per call, @Locked");
        for (int concurrency : bench.concurrency()) {
            Spread[] compared = throughput.compare(concurrency, i -> app.locks().obtain("bench-direct-" + i)
                    .acquireAndExecute(WAIT, LEASE, Uni.createFrom().item(i)), app.target()::work);
            report.row(Integer.toString(concurrency), Report.rate(compared[0]), Report.rate(compared[1]),
                    compared[2].format(Report::ratio), compared[3].format(Report::micros),
                    compared[4].format(Report::micros));
        }
    }
}
