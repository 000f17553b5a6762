package io.quarkiverse.lock.deployment.jdbc;

import io.quarkiverse.lock.testsupport.PostgresServer;

/**
 * The whole contract suite on the JDBC store and a private PostgreSQL 15 server, through the PostgreSQL JDBC driver.
 */
class PostgresJdbcLockStoreTckTest extends JdbcStoreTck {

    PostgresJdbcLockStoreTckTest() {
        super("jdbc:" + PostgresServer.shared().url(), PostgresServer.SUPERUSER, PostgresServer.SUPERUSER_PASSWORD);
    }
}
