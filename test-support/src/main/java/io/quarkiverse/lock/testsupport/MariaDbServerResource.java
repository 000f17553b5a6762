package io.quarkiverse.lock.testsupport;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Starts the shared {@link MariaDbServer} for a {@code @QuarkusTest} and points the default JDBC datasource at it.
 */
public class MariaDbServerResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        MariaDbServer server = MariaDbServer.shared();
        return Map.of("quarkus.datasource.jdbc.url", server.jdbcUrl(), "quarkus.datasource.username",
                MariaDbServer.USER, "quarkus.datasource.password", MariaDbServer.PASSWORD);
    }

    @Override
    public void stop() {
        // the shared server stops when the JVM exits, so several test classes can use it
    }
}
