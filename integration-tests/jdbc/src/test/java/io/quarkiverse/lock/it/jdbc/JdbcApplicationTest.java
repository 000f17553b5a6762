package io.quarkiverse.lock.it.jdbc;

import io.quarkiverse.lock.it.LockApplicationContract;
import io.quarkiverse.lock.testsupport.MariaDbServerResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The registry, the startup migration, health and metrics on the JDBC store, on the application's own datasource, a
 * private MariaDB server.
 */
@QuarkusTest
@WithTestResource(MariaDbServerResource.class)
class JdbcApplicationTest extends LockApplicationContract {

    @Override
    protected String store() {
        return "jdbc";
    }
}
