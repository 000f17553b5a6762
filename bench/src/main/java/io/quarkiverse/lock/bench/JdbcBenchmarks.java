package io.quarkiverse.lock.bench;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import javax.sql.DataSource;

import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStore;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStoreSettings;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcTable;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.testsupport.MariaDbServer;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.vertx.core.Vertx;

/**
 * The JDBC part: Quarkus Lock's JDBC store beside Spring Integration's {@code JdbcLockRegistry} and ShedLock's JDBC
 * provider, on a private PostgreSQL server and then on a private MariaDB server, each started and stopped by this
 * part (their shutdown hooks stop them too if the run fails or the JVM exits).
 *
 * @param vertx the application's Vert.x
 * @param settings the application's lock settings
 * @param bench how long and how wide
 */
record JdbcBenchmarks(Vertx vertx, LockSettings settings, BenchSettings bench) {

    private static final JdbcTable TABLE = JdbcTable.parse("bench_locks");
    /** The default of {@code quarkus.lock.jdbc.threads}. */
    private static final int STORE_THREADS = 8;
    /** The default of {@code quarkus.lock.jdbc.hand-over-poll-interval}. */
    private static final Duration HAND_OVER_POLL = Duration.ofMillis(20);
    /** The hand-over poll of the second handoff row of ours: as often as the polling peers ask. */
    private static final Duration FAST_HAND_OVER_POLL = Duration.ofMillis(ShedLockLibrary.POLL_MILLIS);
    /** The connections of each contender, and the threads of each contender's store. */
    private static final int INSTANCE_POOL = 4;
    /** The highest concurrency, as in the PostgreSQL part: the pools stay within each server's 300 connections. */
    private static final int MAX_CONCURRENCY = 64;

    void run(Report report) throws InterruptedException, SQLException {
        report.part("jdbc");
        report.line(Report.measured() + ", the servers on loopback, started by the benchmark with the settings of "
                + "the tests (PostgreSQL: fsync and synchronous commit off; MariaDB: InnoDB's log flushed once a "
                + "second): Quarkus Lock's JDBC store on an Agroal pool, its peers on HikariCP, all through the same "
                + "JDBC driver.");
        try (PostgresServer server = PostgresServer.start()) {
            measure(report, JdbcServer.of(server));
        }
        try (MariaDbServer server = MariaDbServer.start()) {
            measure(report, JdbcServer.of(server));
        }
    }

    private void measure(Report report, JdbcServer server) throws InterruptedException, SQLException {
        server.createPeerTables();
        String database = server.product().replaceAll(" .*", "");
        int threads = Math.min(MAX_CONCURRENCY, bench.maxConcurrency());
        int instances = bench.pollingContenders();
        try (JdbcConnections connections = new JdbcConnections(server)) {
            Supplier<DataSource> ourInstances = PostgresConnections.reused(instances,
                    () -> connections.agroal(INSTANCE_POOL, 1));
            Supplier<DataSource> peerInstances = PostgresConnections.reused(instances,
                    () -> connections.hikari(INSTANCE_POOL, 1));
            try (LockLibrary ours = OurLibrary.standalone("Quarkus Lock JDBC",
                    store(connections.agroal(threads, threads), STORE_THREADS, HAND_OVER_POLL), vertx, settings,
                    () -> store(ourInstances.get(), INSTANCE_POOL, HAND_OVER_POLL));
                    LockLibrary oursPolling = OurLibrary.standalone("Quarkus Lock JDBC, hand-over-poll-interval "
                            + FAST_HAND_OVER_POLL.toMillis() + " ms",
                            store(connections.agroal(1, 1), 1,
                                    FAST_HAND_OVER_POLL),
                            vertx, settings, () -> store(ourInstances.get(), INSTANCE_POOL, FAST_HAND_OVER_POLL));
                    LockLibrary spring = new SpringJdbcLibrary(connections.hikari(threads, threads), peerInstances,
                            null, threads);
                    LockLibrary springPolling = new SpringJdbcLibrary(connections.hikari(1, 1), peerInstances,
                            Duration.ofMillis(ShedLockLibrary.POLL_MILLIS), 1);
                    LockLibrary shedLock = new ShedLockLibrary(connections.hikari(threads, threads), peerInstances,
                            threads)) {
                new UncontendedCurve(report, bench).measure(
                        "JDBC on " + database + ": uncontended acquire+release pairs per second",
                        " On " + server.product() + ". Each library has a pool of as many connections as the highest "
                                + "concurrency (at most " + MAX_CONCURRENCY + "); the peers' blocking calls run on as "
                                + "many threads, Quarkus Lock's on the " + STORE_THREADS + " threads of its store "
                                + "(quarkus.lock.jdbc.threads' default).",
                        "jdbc-" + database.toLowerCase(Locale.ROOT) + "-uncontended-pairs",
                        bench.concurrencyUpTo(MAX_CONCURRENCY), List.of(ours, spring, shedLock), List.of());
                new HandoffTable(report, bench).measure("JDBC on " + database + ": handoff under contention",
                        " On " + server.product() + ". Each contender has a connection pool of " + INSTANCE_POOL
                                + " connections of its own (and Quarkus Lock's store as many threads). Quarkus Lock's "
                                + "release hands the lock to the first waiter in line, whose instance hears it at "
                                + "once on PostgreSQL (a notification in the hand-over's transaction, heard on one "
                                + "LISTEN connection of its pool), and otherwise finds it by a "
                                + "poll every " + HAND_OVER_POLL.toMillis() + " ms (quarkus.lock.jdbc.hand-over-poll-"
                                + "interval's default; the second row of ours sets " + FAST_HAND_OVER_POLL.toMillis()
                                + " ms, as often as the polling peers ask) or by asking again itself; Spring's JdbcLockRegistry retries "
                                + "every idleBetweenTries (100 ms unless set; the second Spring row sets "
                                + ShedLockLibrary.POLL_MILLIS + " ms); ShedLock only takes a lock or skips, so its "
                                + "contender retries every " + ShedLockLibrary.POLL_MILLIS + " ms, as a user's retry "
                                + "loop would.",
                        new int[] { instances }, List.of(ours, oursPolling, spring, springPolling, shedLock), null);
            }
        }
    }

    private LockStore store(DataSource dataSource, int threads, Duration handOverPoll) {
        JdbcLockStore store = new JdbcLockStore(vertx, dataSource, new JdbcLockStoreSettings(TABLE,
                settings.keyPrefix(), true, threads, handOverPoll, Duration.ofHours(1), settings.operationTimeout()));
        store.detect();
        return store;
    }
}
