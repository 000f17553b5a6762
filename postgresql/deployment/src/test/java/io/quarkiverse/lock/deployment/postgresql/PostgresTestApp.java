package io.quarkiverse.lock.deployment.postgresql;

import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A test application whose default reactive datasource is a private PostgreSQL server, as the superuser.
 */
final class PostgresTestApp {

    private PostgresTestApp() {
    }

    /**
     * @param server the server
     * @param table the lock table, one per test class so that the classes sharing a server never see each other's
     *        rows
     * @return the application, with Dev Services off
     */
    static QuarkusUnitTest on(PostgresServer server, String table) {
        return new QuarkusUnitTest()
                .withApplicationRoot(root -> root.addClass(PostgresTestApp.class))
                .overrideConfigKey("quarkus.devservices.enabled", "false")
                .overrideConfigKey("quarkus.datasource.db-kind", "postgresql")
                .overrideConfigKey("quarkus.datasource.reactive.url", server.url())
                .overrideConfigKey("quarkus.datasource.username", PostgresServer.SUPERUSER)
                .overrideConfigKey("quarkus.datasource.password", PostgresServer.SUPERUSER_PASSWORD)
                .overrideConfigKey("quarkus.lock.postgresql.table", table);
    }
}
