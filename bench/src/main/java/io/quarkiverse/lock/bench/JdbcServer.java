package io.quarkiverse.lock.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import io.quarkiverse.lock.testsupport.MariaDbServer;
import io.quarkiverse.lock.testsupport.PostgresServer;

/**
 * A database server of the JDBC part, started by the benchmark, and how each peer makes its table there.
 *
 * @param product the database and its version, for the tables
 * @param url its JDBC URL
 * @param user who the libraries log in as
 * @param password that user's password
 * @param springSchema the schema script Spring Integration ships for the database
 * @param shedLockTable the lock table, as ShedLock's guide gives it for the database
 */
record JdbcServer(String product, String url, String user, String password, String springSchema,
        String shedLockTable) {

    /** ShedLock's table for MySQL and MariaDB, from its guide. */
    private static final String SHEDLOCK_MARIADB = "CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until "
            + "TIMESTAMP(3) NOT NULL, locked_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), locked_by "
            + "VARCHAR(255) NOT NULL, PRIMARY KEY (name))";

    /**
     * @param server a running PostgreSQL server
     * @return it, logged in to as its superuser
     */
    static JdbcServer of(PostgresServer server) {
        return new JdbcServer("PostgreSQL " + server.sql("SHOW server_version"),
                "jdbc:postgresql://127.0.0.1:" + server.port() + "/" + PostgresServer.DATABASE,
                PostgresServer.SUPERUSER, PostgresServer.SUPERUSER_PASSWORD, SpringJdbcLibrary.POSTGRESQL_SCHEMA,
                ShedLockLibrary.CREATE_TABLE);
    }

    /**
     * @param server a running MariaDB server
     * @return it, logged in to as its test user
     */
    static JdbcServer of(MariaDbServer server) {
        return new JdbcServer("MariaDB " + server.sql("SELECT VERSION()"), server.jdbcUrl(), MariaDbServer.USER,
                MariaDbServer.PASSWORD, SpringJdbcLibrary.MYSQL_SCHEMA, SHEDLOCK_MARIADB);
    }

    /**
     * Creates the peers' tables; Quarkus Lock's store creates its own.
     *
     * @throws SQLException if a statement failed
     */
    void createPeerTables() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, user, password);
                Statement statement = connection.createStatement()) {
            statement.execute(SpringJdbcLibrary.createTableStatement(springSchema));
            statement.execute(shedLockTable);
        }
    }
}
