package io.quarkiverse.lock.reliability;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * The leader-election run ({@link LeaderElectionRun}) on Redis: a kill, a freeze and a graceful shutdown of the leader,
 * then redis-server killed and started again without persistence, so that it has forgotten every lock: terms still
 * rise, since a token is at least the server's time.
 */
class LeaderElectionIT {

    @TempDir
    Path logs;

    @Test
    void oneLeaderAtATimeThroughAKillAFreezeAShutdownAndARestartOfRedis() throws Exception {
        RedisServer[] redis = { RedisServer.start() };
        try {
            LeaderElectionRun.run(new LeaderElectionRun.Store() {
                @Override
                public Processes.Contender start(List<String> settings, String... args) throws IOException {
                    List<String> all = new ArrayList<>(settings);
                    all.add("-Dquarkus.redis.hosts=" + redis[0].uri());
                    return Processes.start(all, args);
                }

                @Override
                public void stop() {
                    redis[0].kill();
                }

                @Override
                public void restart() {
                    redis[0] = RedisServer.start(redis[0].port());
                }

                @Override
                public String name() {
                    return "Redis";
                }
            }, logs);
        } finally {
            redis[0].close();
        }
    }
}
