package io.quarkiverse.lock.deployment.jdbc;

/**
 * The whole contract suite on the JDBC store and H2, in process.
 */
class H2LockStoreTckTest extends JdbcStoreTck {

    H2LockStoreTckTest() {
        super("jdbc:h2:mem:contract;DB_CLOSE_DELAY=-1", "sa", "");
    }
}
