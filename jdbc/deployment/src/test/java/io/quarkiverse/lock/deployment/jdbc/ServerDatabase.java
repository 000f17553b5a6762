package io.quarkiverse.lock.deployment.jdbc;

import java.util.function.Supplier;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.testsupport.LocalServer;
import io.quarkiverse.lock.testsupport.MariaDbServer;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.proxy.WireProtocol;

/**
 * The database servers the JDBC store's fault tests run on, each a private server of the tests, reached through its
 * own JDBC driver (and through a fault proxy that reads its protocol).
 */
public enum ServerDatabase {

    /** PostgreSQL 15, through the PostgreSQL JDBC driver; it tells the store of releases by notifications. */
    POSTGRESQL(WireProtocol.POSTGRESQL, true, PostgresServer::start, PostgresServer::shared),

    /** MariaDB 10.11, through MariaDB Connector/J; the store polls it. */
    MARIADB(WireProtocol.MARIADB, false, MariaDbServer::start, MariaDbServer::shared);

    /**
     * How long the PostgreSQL driver waits for a new connection to be ready: without it, a connection whose set-up
     * answer a fault dropped waits for ever, and with it the pool's only thread that opens connections.
     */
    private static final int LOGIN_TIMEOUT_SECONDS = 5;

    private final WireProtocol protocol;
    private final boolean notifies;
    private final Supplier<LocalServer> start;
    private final Supplier<LocalServer> shared;

    ServerDatabase(WireProtocol protocol, boolean notifies, Supplier<LocalServer> start, Supplier<LocalServer> shared) {
        this.protocol = protocol;
        this.notifies = notifies;
        this.start = start;
        this.shared = shared;
    }

    /**
     * @return the protocol a fault proxy in front of this database reads
     */
    public WireProtocol protocol() {
        return protocol;
    }

    /**
     * @return whether the store is told of releases by the server (so the server pushes messages to it)
     */
    public boolean notifies() {
        return notifies;
    }

    /**
     * @return a new server of the caller's own, to close when done
     * @throws IllegalStateException if it could not be started
     */
    public LocalServer start() {
        return start.get();
    }

    /**
     * @return the server every test of this JVM shares, started on first use
     */
    public LocalServer shared() {
        return shared.get();
    }

    /**
     * @param port the port of the server, or of a proxy in front of it
     * @param size how many connections at most
     * @return a pool on the tests' database, as the tests' user, as {@link JdbcStoreTck#pool} makes one
     */
    public AgroalDataSource pool(int port, int size) {
        return this == POSTGRESQL
                ? JdbcStoreTck.pool("jdbc:postgresql://127.0.0.1:" + port + "/" + PostgresServer.DATABASE
                        + "?sslmode=disable&loginTimeout=" + LOGIN_TIMEOUT_SECONDS, PostgresServer.SUPERUSER,
                        PostgresServer.SUPERUSER_PASSWORD, size)
                : JdbcStoreTck.pool("jdbc:mariadb://127.0.0.1:" + port + "/" + MariaDbServer.DATABASE,
                        MariaDbServer.USER, MariaDbServer.PASSWORD, size);
    }
}
