package io.quarkiverse.lock.testsupport;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Stops the PostgreSQL servers a test JVM started when its JUnit run ends, passed or failed, before the JVM's
 * shutdown hooks would. Registered as a service, so every module whose tests use {@link PostgresServer} has it.
 */
public class PostgresServers implements LauncherSessionListener {

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        PostgresServer.closeAll();
    }
}
