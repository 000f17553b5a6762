package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;
import java.util.logging.Logger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * A datasource whose database is none the store supports fails startup with a message naming the database found and
 * the supported ones. The database is H2 behind a driver that reports another product, as Apache Derby's would.
 */
class UnsupportedDatabaseTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(root -> root.addClass(DerbyLookalikeDriver.class))
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.datasource.db-kind", "other")
            .overrideConfigKey("quarkus.datasource.jdbc.driver", DerbyLookalikeDriver.class.getName())
            .overrideConfigKey("quarkus.datasource.jdbc.url", "jdbc:h2:mem:unsupported;DB_CLOSE_DELAY=-1")
            .assertException(failure -> {
                Throwable cause = failure;
                while (cause.getCause() != null && !String.valueOf(cause.getMessage()).contains("Derby")) {
                    cause = cause.getCause();
                }
                assertThat(cause).hasMessageContaining("does not support the database 'Apache Derby'")
                        .hasMessageContaining("MariaDB, MySQL (through the MariaDB dialect), PostgreSQL and H2");
            });

    @Test
    void startupFails() {
        // the application must not start: asserted by assertException
    }

    /** H2's driver, whose connections say they are Apache Derby's. */
    public static class DerbyLookalikeDriver implements Driver {

        private final Driver h2 = new org.h2.Driver();

        @Override
        public Connection connect(String url, Properties info) throws SQLException {
            Connection connection = h2.connect(url, info);
            return connection == null ? null : lookalike(connection);
        }

        private static Connection lookalike(Connection connection) {
            return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] { Connection.class }, (proxy, method, arguments) -> {
                        if (method.getName().equals("getMetaData")) {
                            DatabaseMetaData metaData = connection.getMetaData();
                            return Proxy.newProxyInstance(DatabaseMetaData.class.getClassLoader(),
                                    new Class<?>[] { DatabaseMetaData.class }, (p, m, a) -> m.getName()
                                            .equals("getDatabaseProductName") ? "Apache Derby" : invoke(m, metaData, a));
                        }
                        return invoke(method, connection, arguments);
                    });
        }

        private static Object invoke(java.lang.reflect.Method method, Object target, Object[] arguments)
                throws Throwable {
            try {
                return method.invoke(target, arguments);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        @Override
        public boolean acceptsURL(String url) throws SQLException {
            return h2.acceptsURL(url);
        }

        @Override
        public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
            return h2.getPropertyInfo(url, info);
        }

        @Override
        public int getMajorVersion() {
            return h2.getMajorVersion();
        }

        @Override
        public int getMinorVersion() {
            return h2.getMinorVersion();
        }

        @Override
        public boolean jdbcCompliant() {
            return false;
        }

        @Override
        public Logger getParentLogger() {
            return Logger.getGlobal();
        }
    }
}
