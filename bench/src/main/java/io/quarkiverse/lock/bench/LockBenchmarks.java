package io.quarkiverse.lock.bench;

import java.time.Duration;

import jakarta.inject.Inject;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.test.RedisServer;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.smallrye.mutiny.Uni;

/**
 * Benchmarks of Quarkus Lock on a local redis-server that the benchmark starts itself.
 */
@QuarkusMain
public class LockBenchmarks implements QuarkusApplication {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration LEASE = Duration.ofSeconds(10);

    @Inject
    LockRegistry locks;

    @Inject
    LockedTarget target;

    /**
     * Starts a redis-server, points the application at it, and runs the benchmarks.
     *
     * @param args unused
     */
    public static void main(String... args) {
        try (RedisServer redis = RedisServer.start()) {
            System.setProperty("quarkus.redis.hosts", redis.uri());
            Quarkus.run(LockBenchmarks.class, args);
        }
    }

    @Override
    public int run(String... args) {
        Throughput throughput = new Throughput(Duration.ofSeconds(3), Duration.ofSeconds(3), 5);
        System.out.println("@Locked overhead: the same empty critical section through the interceptor and through "
                + "acquireAndExecute, uncontended (a key per loop), on a local redis-server");
        for (int concurrency : new int[] { 1, 16, 64 }) {
            Throughput.Result direct = throughput.measure(concurrency, i -> locks.obtain("bench-direct-" + i)
                    .acquireAndExecute(WAIT, LEASE, Uni.createFrom().item(i)));
            Throughput.Result locked = throughput.measure(concurrency, target::work);
            System.out.printf("  concurrency %2d: acquireAndExecute %s; @Locked %s; @Locked/direct = %.3f%n",
                    concurrency, direct, locked, locked.median() / direct.median());
        }
        return 0;
    }
}
