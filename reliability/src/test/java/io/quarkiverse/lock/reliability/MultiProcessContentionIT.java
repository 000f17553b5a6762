package io.quarkiverse.lock.reliability;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.RedisCluster;
import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * The {@linkplain ContentionRun contention run} of three separate JVM processes on four keys of one redis-server,
 * then of a Redis Cluster: no two sections of one key overlapped, and fencing tokens strictly increased.
 */
class MultiProcessContentionIT {

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
        ContentionRun.contend(args -> Processes.start(settings, args), contender -> {
        }, port, store);
    }
}
