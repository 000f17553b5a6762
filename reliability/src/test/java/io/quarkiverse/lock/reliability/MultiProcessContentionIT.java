package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.RedisCluster;
import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * Three separate JVM processes run critical sections on four keys of one redis-server, then of a Redis Cluster; the
 * shared log of every
 * section start and end, ordered by Redis, proves that no two sections of one key overlapped and that fencing tokens
 * strictly increased. CI-sized: 21,000 sections on each; {@code -Dreliability.soak=true}: 300,000.
 */
class MultiProcessContentionIT {

    private static final int PROCESSES = 3;
    private static final int KEYS = 4;
    private static final int WORKERS_PER_PROCESS = 8;

    @Test
    void threeProcessesNeverOverlapOnAKeyAndTheirTokensOnlyRise() throws Exception {
        RedisServer redis = RedisServer.start();
        try {
            contend(List.of("-Dquarkus.redis.hosts=" + redis.uri()), redis.port(), "one redis-server");
        } finally {
            redis.shutdown();
        }
    }

    @Test
    void threeProcessesOnARedisClusterNeverOverlapOnAKeyAndTheirTokensOnlyRise() throws Exception {
        RedisCluster cluster = RedisCluster.shared();
        contend(List.of("-Dquarkus.redis.client-type=cluster", "-Dquarkus.redis.hosts=" + cluster.hosts()),
                cluster.primaries().get(0), "a Redis Cluster of six nodes");
    }

    private static void contend(List<String> settings, int port, String store) throws Exception {
        boolean soak = Boolean.getBoolean("reliability.soak");
        int sectionsPerProcess = soak ? 100_000 : 7_000;
        List<Processes.Contender> contenders = new ArrayList<>();
        try {
            long start = System.nanoTime();
            for (int i = 0; i < PROCESSES; i++) {
                contenders.add(Processes.start(settings, "contend", Integer.toString(KEYS),
                        Integer.toString(sectionsPerProcess), Integer.toString(WORKERS_PER_PROCESS), "sections"));
            }
            for (Processes.Contender contender : contenders) {
                assertThat(contender.awaitExit(Duration.ofMinutes(soak ? 60 : 10))).as(contender.output()).isZero();
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

            List<String> log = Processes.readList(port, "sections");
            assertThat(SectionLog.sections(log)).isEqualTo((long) PROCESSES * sectionsPerProcess);
            assertThat(SectionLog.violations(log)).isEmpty();
            System.out.printf("Checked %d critical sections of %d processes on %d keys of %s in %d ms: no overlap, "
                    + "tokens strictly increasing%n", SectionLog.sections(log), PROCESSES, KEYS, store,
                    elapsed.toMillis());
        } finally {
            contenders.forEach(Processes.Contender::close);
        }
    }
}
