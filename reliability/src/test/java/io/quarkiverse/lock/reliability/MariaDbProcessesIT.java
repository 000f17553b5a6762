package io.quarkiverse.lock.reliability;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.quarkiverse.lock.testsupport.MariaDbServer;

/**
 * The reliability runs ({@link SqlStoreProcesses}) on the JDBC store, with the harness build that locks on MariaDB
 * through it (the datasource {@code locks}), on a private MariaDB server.
 */
class MariaDbProcessesIT extends SqlStoreProcesses {

    private static MariaDbServer mariaDb;

    @BeforeAll
    static void startMariaDb() {
        mariaDb = MariaDbServer.start();
    }

    @AfterAll
    static void stopMariaDb() {
        mariaDb.close();
    }

    @Override
    List<String> datasource() {
        return List.of("-Dquarkus.datasource.locks.jdbc.url=" + mariaDb.jdbcUrl(),
                "-Dquarkus.datasource.locks.username=" + MariaDbServer.USER,
                "-Dquarkus.datasource.locks.password=" + MariaDbServer.PASSWORD);
    }

    @Override
    Processes.Contender start(List<String> settings, String... args) throws IOException {
        return Processes.startOnJdbc(settings, args);
    }

    @Override
    String database() {
        return "MariaDB";
    }

    @Override
    String feature() {
        return "lock-jdbc";
    }

    /**
     * Longer than on PostgreSQL: the waiter's JVM must start, open its pool and be waiting before the holder's lease
     * ends, which on a loaded 2-core machine took more than 4 s.
     */
    @Override
    long leaseMillis() {
        return 8_000;
    }

    @Override
    void stopDatabase() {
        mariaDb.stop();
    }

    @Override
    void restartDatabase() {
        mariaDb.restart();
    }
}
