package io.quarkiverse.lock.deployment.jdbc;

import java.util.List;

import io.quarkiverse.lock.testsupport.MariaDbServer;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkus.builder.Version;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Test applications whose default JDBC datasource is one of the databases the store supports, with Dev Services off.
 */
final class JdbcTestApp {

    /** The Redis client, for the applications that have one besides their JDBC datasource. */
    static final List<Dependency> REDIS_CLIENT = List.of(Dependency.of("io.quarkus", "quarkus-redis-client",
            Version.getVersion()));

    private JdbcTestApp() {
    }

    /**
     * @param table the lock table, one per test class so that the classes sharing a server never see each other's
     *        rows
     * @param classes more classes of the application
     * @return an application on H2 in process, in a database of its own
     */
    static QuarkusUnitTest h2(String table, Class<?>... classes) {
        return base(table, classes)
                .overrideConfigKey("quarkus.datasource.db-kind", "h2")
                .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:h2:mem:" + table + ";DB_CLOSE_DELAY=-1");
    }

    /**
     * @param classes more classes of the application
     * @return an application on the private MariaDB server
     */
    static QuarkusUnitTest mariaDb(String table, Class<?>... classes) {
        return mariaDb(MariaDbServer.shared(), table, classes);
    }

    /**
     * @param server the MariaDB server, such as one a test class owns because it stops it
     * @param classes more classes of the application
     * @return an application on that server
     */
    static QuarkusUnitTest mariaDb(MariaDbServer server, String table, Class<?>... classes) {
        return base(table, classes)
                .overrideConfigKey("quarkus.datasource.db-kind", "mariadb")
                .overrideConfigKey("quarkus.datasource.jdbc.url", server.jdbcUrl())
                .overrideConfigKey("quarkus.datasource.username", MariaDbServer.USER)
                .overrideConfigKey("quarkus.datasource.password", MariaDbServer.PASSWORD);
    }

    /**
     * @return an application on the private PostgreSQL server, through the JDBC driver
     */
    static QuarkusUnitTest postgres(String table) {
        return base(table)
                .overrideConfigKey("quarkus.datasource.db-kind", "postgresql")
                .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:" + PostgresServer.shared().url())
                .overrideConfigKey("quarkus.datasource.username", PostgresServer.SUPERUSER)
                .overrideConfigKey("quarkus.datasource.password", PostgresServer.SUPERUSER_PASSWORD);
    }

    private static QuarkusUnitTest base(String table, Class<?>... classes) {
        return new QuarkusUnitTest()
                .withApplicationRoot(
                        root -> root.addClasses(JdbcTestApp.class, CriticalSections.class, CriticalSectionTestBase.class)
                                .addClasses(classes))
                .overrideConfigKey("quarkus.devservices.enabled", "false")
                .overrideConfigKey("quarkus.lock.jdbc.table", table);
    }
}
