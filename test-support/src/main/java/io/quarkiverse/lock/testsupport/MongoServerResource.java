package io.quarkiverse.lock.testsupport;

import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Starts the shared {@link MongoTestServer} for a {@code @QuarkusTest} or a {@code @QuarkusIntegrationTest} (where
 * the server runs in the test process and the application, a jar or a native executable, is told its address) and
 * points the default MongoDB client at it.
 */
public class MongoServerResource implements QuarkusTestResourceLifecycleManager {

    /**
     * The server logs each duplicate-key answer to a contended acquisition at ERROR with its stack trace: thousands
     * of lines of expected outcomes. Kept here so that the level set on it stays.
     */
    private static final Logger SERVER_LOG = Logger.getLogger("de.bwaldvogel.mongo");

    @Override
    public Map<String, String> start() {
        SERVER_LOG.setLevel(Level.OFF);
        return Map.of("quarkus.mongodb.connection-string", MongoTestServer.sharedConnectionString());
    }

    @Override
    public void stop() {
        // the shared server stops when the JVM exits, so several test classes can use it
    }
}
