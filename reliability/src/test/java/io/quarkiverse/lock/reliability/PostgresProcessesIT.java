package io.quarkiverse.lock.reliability;

import java.io.IOException;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.quarkiverse.lock.testsupport.PostgresServer;

/**
 * The reliability runs ({@link SqlStoreProcesses}) on the PostgreSQL store, with the harness build that locks on
 * PostgreSQL, on a private PostgreSQL server.
 */
class PostgresProcessesIT extends SqlStoreProcesses {

    private static PostgresServer postgres;

    @BeforeAll
    static void startPostgres() {
        postgres = PostgresServer.start();
    }

    @AfterAll
    static void stopPostgres() {
        postgres.close();
    }

    @Override
    List<String> datasource() {
        return List.of("-Dquarkus.datasource.reactive.url=" + postgres.url(),
                "-Dquarkus.datasource.username=" + PostgresServer.SUPERUSER,
                "-Dquarkus.datasource.password=" + PostgresServer.SUPERUSER_PASSWORD);
    }

    @Override
    Processes.Contender start(List<String> settings, String... args) throws IOException {
        return Processes.startOnPostgres(settings, args);
    }

    @Override
    String database() {
        return "PostgreSQL";
    }

    @Override
    String feature() {
        return "lock-postgresql";
    }

    @Override
    long leaseMillis() {
        return 4_000;
    }

    @Override
    void stopDatabase() {
        postgres.stop();
    }

    @Override
    void restartDatabase() {
        postgres.restart();
    }
}
