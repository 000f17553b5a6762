package io.quarkiverse.lock.it.jdbc;

import io.quarkiverse.lock.it.LockedMethodsContract;
import io.quarkiverse.lock.testsupport.MariaDbServerResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The {@code @Locked} endpoints on the JDBC store, on a private MariaDB server.
 */
@QuarkusTest
@WithTestResource(MariaDbServerResource.class)
class JdbcLockedMethodsTest extends LockedMethodsContract {
}
