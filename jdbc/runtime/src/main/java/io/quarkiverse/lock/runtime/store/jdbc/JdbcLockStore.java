package io.quarkiverse.lock.runtime.store.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.KnownLines;
import io.quarkiverse.lock.spi.OneStepReleaseStore;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * A store on a JDBC datasource (MariaDB or MySQL, PostgreSQL, H2): one row per lock key and a table of waiters
 * ({@link JdbcStatements}), each operation one short transaction of its own that locks the key's row and decides by
 * the database's clock ({@link JdbcLockOperations}), but for the acquisition and the release of a lock nobody waits
 * for, one statement each.
 * <p>
 * JDBC blocks, the SPI does not: every call runs on the store's own threads ({@link JdbcWorkers}), this instance's
 * operations on one key one after the other, and never joins a caller's transaction ({@link JdbcTransactions}). Other
 * instances hear of hand-overs through a poll of one indexed query ({@link JdbcReleaseWatch}), and on PostgreSQL at
 * once, through its notifications ({@link JdbcNotificationWatch}); a bounded sweep deletes
 * rows that have been free and unasked for longer than the configured retention.
 */
public final class JdbcLockStore extends OneStepReleaseStore {

    /** The store's name, the value of {@code quarkus.lock.provider} that chooses it. */
    public static final String NAME = "jdbc";

    /**
     * The PostgreSQL driver's types through which the store reads notifications, by reflection: a native image keeps
     * them when the driver is there.
     */
    public static final List<String> POSTGRESQL_DRIVER_TYPES = PostgresNotifications.TYPES;
    /**
     * The drivers' connection types through which the store reads the server's id of a connection's session, to end
     * it when a statement's outcome is unknown, by reflection: a native image keeps each one that is there.
     */
    public static final List<String> SESSION_DRIVER_TYPES = JdbcSessions.DRIVER_TYPES;

    private static final Logger LOG = Logger.getLogger(JdbcLockStore.class);
    /** Leases longer than a century are kept until released, which also keeps their end within a {@code long}. */
    private static final long LONGEST_LEASE_MILLIS = Duration.ofDays(36_500).toMillis();
    /** How often sightings of lines that lapsed are forgotten, so that keys no longer used take no memory. */
    private static final long FORGET_LINES_SECONDS = 10;
    private static final long PLACE_NANOS = PLACE_MILLIS * 1_000_000;

    private final JdbcLockStoreSettings settings;
    private final JdbcDatabase database;
    private final JdbcWorkers workers;
    private final JdbcSweep sweep;
    private final ScheduledExecutorService scheduler;
    private final Set<JdbcReleaseWatch> watches = new CopyOnWriteArraySet<>();
    private final KnownLines knownLines = new KnownLines(System::nanoTime);
    /** When a waiting attempt of this instance was last refused, by the monotonic clock. */
    private volatile long lineSeenNanos = System.nanoTime() - PLACE_NANOS;

    /**
     * @param vertx the Vert.x instance whose contexts outcomes are delivered on
     * @param dataSource the datasource, whose connections the store takes one operation at a time
     * @param settings how the store works
     */
    public JdbcLockStore(Vertx vertx, DataSource dataSource, JdbcLockStoreSettings settings) {
        this.settings = settings;
        this.database = new JdbcDatabase(dataSource, settings.table(), settings.createSchema());
        this.workers = new JdbcWorkers(vertx, settings.threads(), settings.operationTimeout());
        this.scheduler = Executors.newSingleThreadScheduledExecutor(work -> {
            Thread thread = new Thread(work, "quarkus-lock-jdbc-watch");
            thread.setDaemon(true);
            return thread;
        });
        this.sweep = new JdbcSweep(database, settings);
    }

    /**
     * The lock tables' DDL, as the store sends it when it creates them and as the guide prints it.
     *
     * @param dialect the database
     * @param table the lock table
     * @return idempotent statements, in the order to run them
     */
    public static List<String> createTableStatements(JdbcDialect dialect, JdbcTable table) {
        return dialect.createTables(table);
    }

    /**
     * Finds the database now, on the calling thread, and creates the tables if the store may: the producer calls it
     * at startup so that a database the store does not support fails startup. A database that cannot be reached yet
     * is found by the first operation instead.
     *
     * @return the database's dialect, or {@code null} if it could not be reached
     * @throws IllegalStateException if the database is none the store supports, naming it and them
     */
    public JdbcDialect detect() {
        try {
            return database.get(System.nanoTime() + settings.operationTimeout().toNanos()).statements().dialect;
        } catch (SQLException e) {
            LOG.warnf("Could not reach the lock store's datasource at startup (%s); the first lock operation tries "
                    + "again", e.getMessage());
            return null;
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Starts the sweep, and the forgetting of lapsed sightings of lines. */
    @Override
    public void start() {
        sweep.scheduleOn(scheduler);
        scheduler.scheduleWithFixedDelay(knownLines::forgetLapsed, FORGET_LINES_SECONDS, FORGET_LINES_SECONDS,
                TimeUnit.SECONDS);
    }

    /** Stops the sweep, the release watches and the threads. */
    @Override
    public void close() {
        for (JdbcReleaseWatch watch : watches) {
            watch.close();
        }
        scheduler.shutdownNow();
        database.close();
        workers.close();
    }

    /**
     * Acquires in one statement when the lock is free and nobody is in line ({@link JdbcLockOperations#grantAlone}),
     * unless this instance lately found a line on the key ({@link KnownLines}); otherwise, or when that statement
     * changed nothing, in one transaction.
     */
    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        long lease = lease(leaseMillis);
        return workers.onKey(key, deadline -> {
            if (!knownLines.likely(key)) {
                AcquireResult granted = alone(deadline, key,
                        (operations, tx, id) -> operations.grantAlone(tx, id, owner, lease));
                if (granted != null) {
                    return granted;
                }
            }
            AcquireResult result = inTransaction(deadline, key,
                    (operations, tx, id) -> operations.acquire(tx, id, owner, lease, waiting));
            if (waiting && !result.acquired()) {
                knownLines.seen(key);
                lineSeenNanos = System.nanoTime();
            }
            return result;
        });
    }

    @Override
    public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
        return onKey(key, (operations, tx, id) -> operations.takeOver(tx, id, owner, lease(leaseMillis)));
    }

    /**
     * Frees the lock: the release, the take-back and the overriding release. A holder's release when nobody is in line
     * is one statement ({@link JdbcLockOperations#releaseAlone}), tried first unless this instance lately found a line
     * on the key ({@link KnownLines}); everything else is one transaction.
     */
    @Override
    protected Uni<Boolean> free(String key, String owner) {
        return workers.onKey(key, deadline -> {
            if (owner != null && !knownLines.likely(key)
                    && alone(deadline, key, (operations, tx, id) -> operations.releaseAlone(tx, id, owner))) {
                return new JdbcLockOperations.Freed(true, null, 0);
            }
            JdbcLockOperations.Freed freed = inTransaction(deadline, key,
                    (operations, tx, id) -> operations.free(tx, id, owner));
            if (freed.handedTo() != null) {
                announce(deadline, key, freed);
            }
            return freed;
        }).map(freed -> {
            if (freed.handedTo() != null) {
                for (JdbcReleaseWatch watch : watches) {
                    watch.handedOver(key, freed.handedTo(), freed.token());
                }
            }
            return freed.released();
        });
    }

    @Override
    public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
        return onKey(key, (operations, tx, id) -> operations.renew(tx, id, owner, lease(leaseMillis)));
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        return workers.any(deadline -> {
            JdbcDatabase.Found found = database.get(deadline);
            return found.transactions().read(deadline, tx -> found.operations().isHeld(tx, id(key), owner));
        });
    }

    /**
     * Reads one keyset page of the lock table on its primary key ({@link JdbcListing}), on any worker.
     */
    @Override
    public Uni<LockPage> listHeld(String cursor, int limit) {
        byte[] after = cursor == null ? null : JdbcListing.digest(cursor);
        return workers.any(deadline -> {
            JdbcDatabase.Found found = database.get(deadline);
            return found.transactions().read(deadline,
                    tx -> JdbcListing.page(tx, found.statements(), settings.keyPrefix(), after, limit));
        });
    }

    /**
     * Answers when the lock table can be read, so readiness is down while the table is missing too.
     */
    @Override
    public Uni<Void> ping() {
        return workers.any(deadline -> {
            JdbcDatabase.Found found = database.get(deadline);
            return found.transactions().read(deadline, tx -> tx.count(found.statements().ping));
        }).replaceWithVoid();
    }

    /**
     * @return {@code true} if a waiting acquisition of this instance was refused within the time a place lasts in a
     *         line, so that it may be waiting in one now; {@code false} if none can be
     */
    boolean waitsInLine() {
        return System.nanoTime() - lineSeenNanos < PLACE_NANOS;
    }

    @Override
    public AutoCloseable watchReleases(ReleaseListener listener) {
        JdbcReleaseWatch watch = new JdbcReleaseWatch(database, settings, listener, scheduler, this::waitsInLine);
        watches.add(watch);
        return () -> {
            watches.remove(watch);
            watch.close();
        };
    }

    /**
     * @return how many keys have an operation running or waiting in this instance
     */
    int busyKeys() {
        return workers.busyKeys();
    }

    /** An operation on one key, in one transaction. */
    @FunctionalInterface
    private interface KeyOperation<T> {

        T run(JdbcLockOperations operations, JdbcTransaction tx, JdbcKey id) throws SQLException;
    }

    /** Runs the operation after this instance's earlier operations on the key. */
    private <T> Uni<T> onKey(String key, KeyOperation<T> operation) {
        return workers.onKey(key, deadline -> inTransaction(deadline, key, operation));
    }

    private <T> T inTransaction(long deadlineNanos, String key, KeyOperation<T> operation) throws SQLException {
        JdbcKey id = id(key);
        JdbcDatabase.Found found = database.get(deadlineNanos);
        return found.transactions().run(deadlineNanos, tx -> operation.run(found.operations(), tx, id));
    }

    /**
     * Announces a hand-over to the other instances, on PostgreSQL, once it committed; a failure only leaves them to
     * find it by their poll.
     */
    private void announce(long deadlineNanos, String key, JdbcLockOperations.Freed freed) {
        try {
            alone(deadlineNanos, key, (operations, tx, id) -> operations.announce(tx, id, freed.handedTo(),
                    freed.token()));
        } catch (SQLException | RuntimeException e) {
            LOG.debugf("Could not announce the hand-over of lock %s (%s); the other instances find it by polling", key,
                    e.getMessage());
        }
    }

    /** Runs the operation of one statement in auto-commit, outside a transaction. */
    private <T> T alone(long deadlineNanos, String key, KeyOperation<T> operation) throws SQLException {
        JdbcKey id = id(key);
        JdbcDatabase.Found found = database.get(deadlineNanos);
        return found.transactions().runAlone(deadlineNanos, tx -> operation.run(found.operations(), tx, id));
    }

    private JdbcKey id(String key) {
        return JdbcKey.of(settings.keyPrefix() + key);
    }

    private static long lease(long leaseMillis) {
        return leaseMillis > LONGEST_LEASE_MILLIS ? NO_EXPIRY : leaseMillis;
    }
}
