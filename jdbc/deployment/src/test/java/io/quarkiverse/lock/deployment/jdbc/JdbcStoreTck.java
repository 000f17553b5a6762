package io.quarkiverse.lock.deployment.jdbc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.AgroalConnectionPoolConfiguration.ExceptionSorter;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.exceptionsorter.MySQLExceptionSorter;
import io.agroal.api.exceptionsorter.PostgreSQLExceptionSorter;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStore;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStoreSettings;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcTable;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.tck.LockStoreTck;

/**
 * The whole contract suite on the JDBC store, on one database: every instance is a store of its own on one Agroal
 * pool, so only the database connects them. A binding names the database's JDBC URL and user.
 */
public abstract class JdbcStoreTck extends LockStoreTck {

    private static final JdbcTable TABLE = JdbcTable.parse("contract");

    private final AgroalDataSource dataSource;

    /**
     * @param url the database's JDBC URL
     * @param user the user to log in as
     * @param password its password
     */
    JdbcStoreTck(String url, String user, String password) {
        this.dataSource = pool(url, user, password, 32);
    }

    /**
     * @param url the database's JDBC URL
     * @param user the user to log in as
     * @param password its password
     * @param size how many connections at most
     * @return an Agroal pool of {@code size} connections, as the Agroal extension makes one: with the exception sorter
     *         of the database's Quarkus JDBC extension, so a connection that broke is not handed out again
     */
    public static AgroalDataSource pool(String url, String user, String password, int size) {
        ExceptionSorter sorter = url.startsWith("jdbc:postgresql:") ? new PostgreSQLExceptionSorter()
                : url.startsWith("jdbc:mariadb:") ? new MySQLExceptionSorter() : ExceptionSorter.emptyExceptionSorter();
        try {
            return AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                    .connectionPoolConfiguration(pool -> pool.maxSize(size).acquisitionTimeout(Duration.ofSeconds(10))
                            .exceptionSorter(sorter)
                            .connectionFactoryConfiguration(factory -> factory.jdbcUrl(url)
                                    .principal(new NamePrincipal(user)).credential(new SimplePassword(password)))));
        } catch (SQLException e) {
            throw new IllegalStateException("Could not open a pool on " + url, e);
        }
    }

    @Override
    public LockStore newStore() {
        return newStoreWithKeyPrefix(settings().keyPrefix());
    }

    @Override
    public LockStore newStoreWithKeyPrefix(String keyPrefix) {
        return new JdbcLockStore(vertx(), dataSource, new JdbcLockStoreSettings(TABLE, keyPrefix, true, 8,
                Duration.ofMillis(100), Duration.ofHours(1), settings().operationTimeout()));
    }

    @Override
    public void deleteLock(String key) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement delete = connection.prepareStatement("DELETE FROM contract WHERE lock_id = ?")) {
            delete.setBytes(1, MessageDigest.getInstance("SHA-256")
                    .digest((settings().keyPrefix() + key).getBytes(StandardCharsets.UTF_8)));
            delete.executeUpdate();
        } catch (SQLException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("Could not delete the lock " + key, e);
        }
    }

    @Override
    protected void closeBackend() {
        dataSource.close();
    }
}
