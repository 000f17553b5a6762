package io.quarkiverse.lock.deployment.jdbc;

import io.quarkiverse.lock.testsupport.MariaDbServer;

/**
 * The whole contract suite on the JDBC store and a private MariaDB server.
 */
class MariaDbLockStoreTckTest extends JdbcStoreTck {

    MariaDbLockStoreTckTest() {
        super(MariaDbServer.shared().jdbcUrl(), MariaDbServer.USER, MariaDbServer.PASSWORD);
    }
}
