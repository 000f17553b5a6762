package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.List;

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
 */
final class PostgresBenchmarks {

    private static final PostgresTable TABLE = PostgresTable.parse("bench_locks");
    /** The connections of each contender: ours keeps one of them to listen for hand-overs. */
    private static final int INSTANCE_POOL = 4;

    private final Vertx vertx;
    private final LockSettings settings;
    private final BenchSettings bench;

    PostgresBenchmarks(Vertx vertx, LockSettings settings, BenchSettings bench) {
        this.vertx = vertx;
        this.settings = settings;
        this.bench = bench;
    }

    void run(Report report) throws InterruptedException {
        try (PostgresServer server = PostgresServer.start();
                PostgresConnections connections = new PostgresConnections(server, vertx)) {
            server.sql(PostgresLockStore.createTableStatement(TABLE));
            server.sql(SpringJdbcLibrary.createTableStatement());
            server.sql(ShedLockLibrary.CREATE_TABLE);
            report.part("postgresql");
            String version = server.sql("SHOW server_version");
            report.line(Report.measured() + ", PostgreSQL " + version + " on loopback, started by the benchmark "
                    + "(fsync and synchronous commit off, as in the tests): the JDBC libraries through HikariCP and "
                    + "the PostgreSQL driver, Quarkus Lock through the reactive PostgreSQL client.");
            int threads = bench.maxConcurrency();
            try (LockLibrary ours = OurLibrary.standalone("Quarkus Lock", store(connections.reactive(threads)),
                    vertx, settings, () -> store(connections.reactive(INSTANCE_POOL)));
                    LockLibrary spring = new SpringJdbcLibrary(connections.jdbc(threads, threads),
                            () -> connections.jdbc(INSTANCE_POOL, 1), null, threads);
                    LockLibrary springPolling = new SpringJdbcLibrary(connections.jdbc(1, 1),
                            () -> connections.jdbc(INSTANCE_POOL, 1), Duration.ofMillis(ShedLockLibrary.POLL_MILLIS),
                            1);
                    LockLibrary shedLock = new ShedLockLibrary(connections.jdbc(threads, threads),
                            () -> connections.jdbc(INSTANCE_POOL, 1), threads)) {
                uncontended(report, ours, spring, shedLock);
                report.handoffTable("PostgreSQL: handoff under contention", bench.handoffMethod() + " Each "
                        + "contender has a connection pool of its own. Quarkus Lock's release hands the lock to the "
                        + "first waiter in line and announces it with pg_notify; Spring's JdbcLockRegistry retries "
                        + "every idleBetweenTries (100 ms unless set; the second Spring row sets "
                        + ShedLockLibrary.POLL_MILLIS + " ms); ShedLock only takes a lock or skips, so its contender "
                        + "retries every " + ShedLockLibrary.POLL_MILLIS + " ms, as a user's retry loop would.",
                        bench.handoff(), List.of(ours, spring, springPolling, shedLock));
            }
        }
    }

    private LockStore store(Pool pool) {
        return new PostgresLockStore(vertx, pool, new PostgresLockStoreSettings(TABLE, settings.keyPrefix(), false,
                true, Duration.ofHours(1)), settings.operationTimeout());
    }

    private void uncontended(Report report, LockLibrary ours, LockLibrary spring, LockLibrary shedLock) {
        Throughput throughput = bench.throughput();
        report.section("PostgreSQL: uncontended acquire+release pairs per second",
                "Each loop locks a key of its own, so nothing is contended: the cost of a lock. "
                        + bench.throughputMethod() + " Each library has a pool of as many connections as the "
                        + "highest concurrency; the JDBC libraries' blocking calls run on as many threads.",
                "concurrency", "Quarkus Lock", "Spring JdbcLockRegistry", "ShedLock JDBC", "ours / Spring",
                "ours / ShedLock");
        for (int concurrency : bench.concurrency()) {
            double o = throughput.measure(concurrency, i -> ours.acquireAndRelease("u-ours-" + i)).median();
            double s = throughput.measure(concurrency, i -> spring.acquireAndRelease("u-spring-" + i)).median();
            double l = throughput.measure(concurrency, i -> shedLock.acquireAndRelease("u-shedlock-" + i)).median();
            report.row(Integer.toString(concurrency), Report.rate(o), Report.rate(s), Report.rate(l),
                    Report.ratio(o / s), Report.ratio(o / l));
        }
    }
}
