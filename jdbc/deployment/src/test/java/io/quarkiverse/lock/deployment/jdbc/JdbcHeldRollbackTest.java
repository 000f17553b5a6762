package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStore;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcLockStoreSettings;
import io.quarkiverse.lock.runtime.store.jdbc.JdbcTable;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.quarkiverse.lock.testsupport.MariaDbServer;
import io.quarkiverse.lock.testsupport.PostgresServer;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;

/**
 * A write transaction that the server answered with an error after it locked the key's row (a lock wait that ran into
 * the database's own lock timeout: {@code innodb_lock_wait_timeout} on MariaDB, error 1205, which rolls back the
 * statement only and keeps the transaction's row locks) is rolled back by a {@code ROLLBACK} the store sends. When
 * that request is held on the way (a lossy path, a middlebox), its answer times out, and unless the store ends the
 * session, it stays open on the server, idle in its transaction, holding the key's row lock for as long as the
 * {@code ROLLBACK} is held: every operation on the key, from every instance, waits for that row and fails, the holder
 * cannot release, nobody can acquire. (PostgreSQL aborts the transaction at the error and frees its locks at once,
 * whatever becomes of the {@code ROLLBACK}.)
 */
class JdbcHeldRollbackTest {

    private static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(4);
    private static final Duration OTHERS_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration RECOVERY = Duration.ofSeconds(20);

    private final JdbcInstances instances = new JdbcInstances();

    @AfterEach
    void close() throws Exception {
        instances.close();
    }

    @ParameterizedTest
    @EnumSource(ServerDatabase.class)
    void aRollbackHeldOnTheWayAfterAnAnsweredErrorDoesNotKeepTheKeyLocked(ServerDatabase database) throws Exception {
        int port = database.shared().port();
        FaultProxy proxy = FaultProxy.start("127.0.0.1", port, database.protocol());
        instances.closing(proxy::deliverHeld);
        instances.closing(proxy);
        String table = "rb_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String key = "rollback-" + UUID.randomUUID();

        // the other instances, reached directly
        StandaloneLockRegistry others = instances.registry(database, port, table, OTHERS_TIMEOUT);
        ReactiveDistributedLock holder = others.obtain(key);
        assertThat(holder.acquireOnce().await().atMost(RECOVERY)).isTrue();

        // this instance, through the path that will hold a request; its sessions wait at most 1 s for a lock
        AgroalDataSource viaProxy = database == ServerDatabase.POSTGRESQL
                ? JdbcStoreTck.pool("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + PostgresServer.DATABASE
                        + "?sslmode=disable&loginTimeout=5&options=-c%20lock_timeout%3D1000",
                        PostgresServer.SUPERUSER, PostgresServer.SUPERUSER_PASSWORD, 4)
                : JdbcStoreTck.pool("jdbc:mariadb://127.0.0.1:" + proxy.port() + "/" + MariaDbServer.DATABASE
                        + "?sessionVariables=innodb_lock_wait_timeout=1", MariaDbServer.USER, MariaDbServer.PASSWORD, 4);
        instances.closing(viaProxy);
        JdbcLockStore store = new JdbcLockStore(instances.vertx(), viaProxy,
                new JdbcLockStoreSettings(JdbcTable.parse(table), "",
                        true, 4, Duration.ofMillis(20), Duration.ofHours(1), OPERATION_TIMEOUT));
        instances.closing(store::close);

        // another session makes this instance's insert into the line wait (as a slow or busy server would)
        Connection side = direct(database, port);
        instances.closing(side);
        side.setAutoCommit(false);
        try (Statement statement = side.createStatement()) {
            if (database == ServerDatabase.POSTGRESQL) {
                statement.execute("LOCK TABLE " + table + "_line IN SHARE MODE");
            } else {
                statement.executeQuery("SELECT * FROM " + table + "_line FOR UPDATE").close();
            }
        }

        AtomicBoolean armed = new AtomicBoolean(database == ServerDatabase.MARIADB);
        AtomicBoolean once = new AtomicBoolean(true);
        AtomicBoolean rollbackHeld = new AtomicBoolean();
        proxy.holdRequests(request -> {
            boolean hold = database == ServerDatabase.MARIADB ? "ROLLBACK".equals(request)
                    : armed.get() && once.compareAndSet(true, false);
            if (hold) {
                rollbackHeld.set(true);
            }
            return hold;
        });
        AtomicReference<Throwable> failure = new AtomicReference<>();
        long started = System.nanoTime();
        var attempt = store.tryAcquire(key, "waiter-that-gives-up", 30_000, true).subscribeAsCompletionStage();
        if (database == ServerDatabase.POSTGRESQL) {
            // arm the hold once the insert waits: the next request through the proxy is its ROLLBACK
            try (Connection watch = direct(database, port); Statement statement = watch.createStatement()) {
                while (!armed.get() && System.nanoTime() - started < 10_000_000_000L) {
                    try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM pg_stat_activity "
                            + "WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO " + table + "_line%'")) {
                        rows.next();
                        armed.set(rows.getLong(1) > 0);
                    }
                    Thread.sleep(20);
                }
            }
        }
        try {
            attempt.toCompletableFuture().get(20, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            failure.set(e.getCause());
        }
        assertThat(failure.get()).as("the attempt failed on the answered lock timeout").isNotNull();
        assertThat(rollbackHeld).as("its ROLLBACK was held on the way").isTrue();

        // the other session is done: only the abandoned session can still hold anything
        side.rollback();

        // the holder releases, and the lock is free again: within 20 s
        long releaseStarted = System.nanoTime();
        Boolean released = null;
        while (released == null && System.nanoTime() - releaseStarted < RECOVERY.toNanos()) {
            try {
                released = holder.release().await().atMost(RECOVERY);
            } catch (RuntimeException e) {
                Thread.sleep(500);
            }
        }
        assertThat(released).as("the holder of %s released it within %s, while the ROLLBACK of an attempt that failed "
                + "long ago stayed held on the way (sessions: %s)", key, RECOVERY,
                sessions(database, port, table)).isTrue();
        ReactiveDistributedLock next = others.obtain(key);
        assertThat(next.acquireOnce().await().atMost(RECOVERY)).as("the lock is free for the next").isTrue();
    }

    private static Connection direct(ServerDatabase database, int port) throws Exception {
        return database == ServerDatabase.POSTGRESQL
                ? DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + PostgresServer.DATABASE
                        + "?sslmode=disable", PostgresServer.SUPERUSER, PostgresServer.SUPERUSER_PASSWORD)
                : DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/" + MariaDbServer.DATABASE,
                        MariaDbServer.USER, MariaDbServer.PASSWORD);
    }

    private static String sessions(ServerDatabase database, int port, String table) {
        try (Connection connection = direct(database, port);
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(database == ServerDatabase.POSTGRESQL
                        ? "SELECT pid || ' ' || state || ' ' || left(query, 60) FROM pg_stat_activity "
                                + "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                                + "AND state LIKE 'idle in transaction%'"
                        : "SELECT CONCAT(ID, ' ', COMMAND, ' ', TIME, ' s') FROM information_schema.PROCESSLIST "
                                + "WHERE ID <> CONNECTION_ID()")) {
            StringBuilder found = new StringBuilder();
            while (rows.next()) {
                found.append('[').append(rows.getString(1)).append("] ");
            }
            return found.toString();
        } catch (Exception e) {
            return e.toString();
        }
    }
}
