package io.quarkiverse.lock.reliability;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.mongo.MongoFaults;

/**
 * The leader-election run ({@link LeaderElectionRun}) on MongoDB: the processes lead through the harness build that
 * locks on MongoDB, on the strict test server running in this JVM. The test server keeps its data in memory only, so
 * the outage is the server refusing every command but the handshake and heartbeats for a while, as a server shutting
 * down does (code 91, {@code ShutdownInProgress}), its data kept.
 */
class MongoLeaderElectionIT {

    private static final int SHUTDOWN_IN_PROGRESS = 91;

    @TempDir
    Path logs;

    @Test
    void oneLeaderAtATimeThroughAKillAFreezeAShutdownAndAnOutageOfMongoDb() throws Exception {
        String uri = MongoTestServer.ownedBy(MongoLeaderElectionIT.class);
        MongoFaults faults = MongoTestServer.faultsOf(MongoLeaderElectionIT.class);
        try {
            LeaderElectionRun.run(new LeaderElectionRun.Store() {
                @Override
                public Processes.Contender start(List<String> settings, String... args) throws IOException {
                    List<String> all = new ArrayList<>(settings);
                    all.add("-Dquarkus.mongodb.connection-string=" + uri);
                    return Processes.startOnMongo(all, args);
                }

                @Override
                public void stop() {
                    faults.refuse(command -> !isHandshakeOrHeartbeat(command), Integer.MAX_VALUE, SHUTDOWN_IN_PROGRESS,
                            "ShutdownInProgress", "The server is shutting down");
                }

                @Override
                public void restart() {
                    faults.clear();
                }

                @Override
                public String name() {
                    return "MongoDB";
                }
            }, logs);
        } finally {
            MongoTestServer.stopOwnedBy(MongoLeaderElectionIT.class);
        }
    }

    private static boolean isHandshakeOrHeartbeat(String command) {
        return command.startsWith("{\"hello\"") || command.startsWith("{\"isMaster\"")
                || command.startsWith("{\"ismaster\"");
    }
}
