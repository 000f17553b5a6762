package io.quarkiverse.lock.runtime.store.jdbc;

import java.util.function.Function;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.deployment.jdbc.JdbcStoreTck;
import io.quarkiverse.lock.deployment.jdbc.ServerDatabase;

/**
 * The databases the JDBC store's own tests run on, with a pool of four connections on each, and the query that counts
 * the sessions waiting for a row lock there.
 */
enum TestDatabase {

    H2(JdbcDialect.H2, name -> JdbcStoreTck.pool("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", "sa", "", 4),
            "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL"),
    POSTGRESQL(JdbcDialect.POSTGRESQL,
            name -> ServerDatabase.POSTGRESQL.pool(ServerDatabase.POSTGRESQL.shared().port(), 4),
            "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"),
    MARIADB(JdbcDialect.MARIADB, name -> ServerDatabase.MARIADB.pool(ServerDatabase.MARIADB.shared().port(), 4),
            "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'Updating'");

    final JdbcDialect dialect;
    private final Function<String, AgroalDataSource> pool;
    final String waitingForLocks;

    TestDatabase(JdbcDialect dialect, Function<String, AgroalDataSource> pool, String waitingForLocks) {
        this.dialect = dialect;
        this.pool = pool;
        this.waitingForLocks = waitingForLocks;
    }

    /**
     * @param name the in-process database's name, where the database is in process (H2)
     * @return a new pool on the database, for the caller to close
     */
    AgroalDataSource pool(String name) {
        return pool.apply(name);
    }
}
