package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import javax.sql.DataSource;

import io.quarkiverse.lock.testsupport.PostgresServer;
import io.vertx.core.Vertx;
import io.vertx.mutiny.pgclient.PgBuilder;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;

/**
 * Connection pools to the benchmark's PostgreSQL server, as the libraries' users would have them: reactive pools for
 * Quarkus Lock, HikariCP (Spring Boot's default) for the JDBC libraries. All are closed together.
 */
final class PostgresConnections implements AutoCloseable {

    private final PostgresServer server;
    private final io.vertx.mutiny.core.Vertx vertx;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private final JdbcConnections jdbc;

    PostgresConnections(PostgresServer server, Vertx vertx) {
        this.server = server;
        this.jdbc = new JdbcConnections(JdbcServer.of(server));
        this.vertx = io.vertx.mutiny.core.Vertx.newInstance(vertx);
    }

    /**
     * @param size the most connections, opened as needed
     * @return a reactive pool that caches its prepared statements, as a Quarkus datasource does by default for
     *         PostgreSQL ({@code quarkus.datasource.reactive.cache-prepared-statements})
     */
    synchronized Pool reactive(int size) {
        Pool pool = PgBuilder.pool()
                .connectingTo(PgConnectOptions.fromUri(server.url()).setUser(PostgresServer.SUPERUSER)
                        .setPassword(PostgresServer.SUPERUSER_PASSWORD).setCachePreparedStatements(true))
                .with(new PoolOptions().setMaxSize(size))
                .using(vertx)
                .build();
        opened.add(() -> pool.close().await().atMost(Duration.ofSeconds(10)));
        return pool;
    }

    /**
     * @param size the most connections
     * @param idle how many connections stay open when unused
     * @return a JDBC pool (HikariCP)
     */
    DataSource jdbc(int size, int idle) {
        return jdbc.hikari(size, idle);
    }

    /**
     * Hands out at most {@code count} pools, then the same ones again in turn: each run of a handoff gives each of its
     * contenders a pool of its own, and runs one after the other reuse them, so the server's connections are not used
     * up by pools of finished runs.
     *
     * @param count how many pools, as many as a run has contenders
     * @param make opens a pool
     * @return the pools, opened as first needed
     */
    static <T> Supplier<T> reused(int count, Supplier<T> make) {
        List<T> made = new ArrayList<>();
        return () -> {
            synchronized (made) {
                if (made.size() < count) {
                    made.add(make.get());
                    return made.get(made.size() - 1);
                }
                T next = made.remove(0);
                made.add(next);
                return next;
            }
        };
    }

    @Override
    public synchronized void close() {
        JdbcConnections.closeAll(opened);
        jdbc.close();
    }
}
