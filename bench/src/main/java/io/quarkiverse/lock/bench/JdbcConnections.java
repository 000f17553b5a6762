package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;

/**
 * Connection pools to a database of the JDBC part, as the libraries' users would have them: Agroal (a Quarkus
 * datasource's pool) for Quarkus Lock, HikariCP (Spring Boot's default) for its peers. All are closed together.
 */
final class JdbcConnections implements AutoCloseable {

    private final JdbcServer server;
    private final List<AutoCloseable> opened = new ArrayList<>();

    JdbcConnections(JdbcServer server) {
        this.server = server;
    }

    /**
     * @param size the most connections
     * @param idle how many connections stay open when unused
     * @return an Agroal pool, without the transaction integration of a Quarkus datasource, which the store's own
     *         threads never use
     */
    synchronized DataSource agroal(int size, int idle) {
        AgroalDataSourceConfigurationSupplier config = new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(pool -> pool.maxSize(size).minSize(idle).initialSize(idle)
                        .acquisitionTimeout(Duration.ofSeconds(30))
                        .connectionFactoryConfiguration(factory -> factory.jdbcUrl(server.url())
                                .principal(new NamePrincipal(server.user()))
                                .credential(new SimplePassword(server.password()))));
        io.agroal.pool.DataSource dataSource = new io.agroal.pool.DataSource(config.get());
        opened.add(dataSource);
        return dataSource;
    }

    /**
     * @param size the most connections
     * @param idle how many connections stay open when unused
     * @return a HikariCP pool
     */
    synchronized DataSource hikari(int size, int idle) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(server.url());
        config.setUsername(server.user());
        config.setPassword(server.password());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(idle);
        HikariDataSource dataSource = new HikariDataSource(config);
        opened.add(dataSource);
        return dataSource;
    }

    @Override
    public synchronized void close() {
        closeAll(opened);
    }

    /**
     * Closes every pool of the list, reporting the ones that fail to close, and empties it.
     *
     * @param opened the pools
     */
    static void closeAll(List<AutoCloseable> opened) {
        for (AutoCloseable pool : opened) {
            try {
                pool.close();
            } catch (Exception e) {
                System.err.println("Could not close a connection pool: " + e);
            }
        }
        opened.clear();
    }
}
