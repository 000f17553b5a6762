package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStore;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresLockStoreSettings;
import io.quarkiverse.lock.runtime.store.postgresql.PostgresTable;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;

/**
 * The PostgreSQL part: Quarkus Lock's PostgreSQL store beside Spring Integration's {@code JdbcLockRegistry} and
 * ShedLock's JDBC provider, on one private PostgreSQL server that this part starts and stops (a shutdown hook of
 * {@link PostgresServer} stops it too if the run fails or the JVM exits).
 *
 * @param vertx the application's Vert.x
 * @param settings the application's lock settings
 * @param bench how long and how wide
 */
record PostgresBenchmarks(Vertx vertx, LockSettings settings, BenchSettings bench) {

    private static final PostgresTable TABLE = PostgresTable.parse("bench_locks");
    /** The connections of each contender: ours keeps one of them to listen for hand-overs. */
    private static final int INSTANCE_POOL = 4;
    /**
     * The highest concurrency: three libraries' pools of that many connections, and the contenders' pools, stay
     * within the server's 300 connections.
     */
    private static final int MAX_CONCURRENCY = 64;

    void run(Report report) throws InterruptedException {
        try (PostgresServer server = PostgresServer.start();
                PostgresConnections connections = new PostgresConnections(server, vertx)) {
            server.sql(PostgresLockStore.createTableStatement(TABLE));
            server.sql(SpringJdbcLibrary.createTableStatement(SpringJdbcLibrary.POSTGRESQL_SCHEMA));
            server.sql(ShedLockLibrary.CREATE_TABLE);
            report.part("postgresql");
            String version = server.sql("SHOW server_version");
            report.line(Report.measured() + ", PostgreSQL " + version + " on loopback, started by the benchmark "
                    + "(fsync and synchronous commit off, as in the tests): the JDBC libraries through HikariCP and "
                    + "the PostgreSQL driver, Quarkus Lock through the reactive PostgreSQL client.");
            int threads = Math.min(MAX_CONCURRENCY, bench.maxConcurrency());
            int instances = bench.pollingContenders();
            Supplier<Pool> reactiveInstances = PostgresConnections.reused(instances,
                    () -> connections.reactive(INSTANCE_POOL));
            try (LockLibrary ours = OurLibrary.standalone("Quarkus Lock", store(connections.reactive(threads)),
                    vertx, settings, () -> store(reactiveInstances.get()));
                    LockLibrary spring = new SpringJdbcLibrary(connections.jdbc(threads, threads),
                            PostgresConnections.reused(instances, () -> connections.jdbc(INSTANCE_POOL, 1)), null,
                            threads);
                    LockLibrary springPolling = new SpringJdbcLibrary(connections.jdbc(1, 1),
                            PostgresConnections.reused(instances, () -> connections.jdbc(INSTANCE_POOL, 1)),
                            Duration.ofMillis(ShedLockLibrary.POLL_MILLIS), 1);
                    LockLibrary shedLock = new ShedLockLibrary(connections.jdbc(threads, threads),
                            PostgresConnections.reused(instances, () -> connections.jdbc(INSTANCE_POOL, 1)),
                            threads)) {
                uncontended(report, ours, spring, shedLock);
                new HandoffTable(report, bench).measure("PostgreSQL: handoff under contention",
                        " Each contender has a connection pool of its own. Quarkus Lock's release hands the lock to the "
                                + "first waiter in line and announces it with pg_notify; Spring's JdbcLockRegistry retries "
                                + "every idleBetweenTries (100 ms unless set; the second Spring row sets "
                                + ShedLockLibrary.POLL_MILLIS + " ms); ShedLock only takes a lock or skips, so its contender "
                                + "retries every " + ShedLockLibrary.POLL_MILLIS + " ms, as a user's retry loop would.",
                        new int[] { instances }, List.of(ours, spring, springPolling, shedLock), null);
            }
        }
    }

    private LockStore store(Pool pool) {
        return new PostgresLockStore(vertx, pool, new PostgresLockStoreSettings(TABLE, settings.keyPrefix(), false,
                true, Duration.ofHours(1), settings.operationTimeout()));
    }

    private void uncontended(Report report, LockLibrary ours, LockLibrary spring, LockLibrary shedLock) {
        new UncontendedCurve(report, bench).measure("PostgreSQL: uncontended acquire+release pairs per second",
                " Each library has a pool of as many connections as the highest concurrency (at most "
                        + MAX_CONCURRENCY + "); the JDBC libraries' blocking calls run on as many threads.",
                "postgresql-uncontended-pairs", bench.concurrencyUpTo(MAX_CONCURRENCY), List.of(ours, spring, shedLock),
                List.of());
    }
}
