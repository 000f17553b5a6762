package io.quarkiverse.lock.runtime.store.postgresql;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.HeldLock;
import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.KeyPrefixRange;
import io.quarkiverse.lock.spi.KnownLines;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.spi.OneStepReleaseStore;
import io.quarkiverse.lock.spi.OrderedPerKey;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * A store on PostgreSQL, through the Quarkus reactive client: one row per lock key (shape in
 * {@link PostgresStatements}), each operation one statement, atomic in the database and decided by its clock.
 * <p>
 * An acquisition is one upsert that grants the lock when it is free for this owner, and otherwise keeps the waiter's
 * place in the row's line; a release, a take-back and an overriding release are one statement that frees the lock and
 * hands it straight to the first waiter whose place is live, announcing the hand-over with {@code pg_notify}, which
 * every instance hears on one {@code LISTEN} connection ({@link PostgresReleaseWatch}). An acquisition and a release
 * first send a shorter statement that reads no line, which decides when nobody is in line (the common case: a plain
 * statement costs PostgreSQL a fraction of one that unpacks the line) and otherwise changes nothing, and only then the
 * full one; on a key where this instance lately found a line ({@link KnownLines}), only the full one. Releases keep
 * the row, so its
 * fencing counter keeps rising; a bounded sweep deletes rows that have been free and unasked for longer than the
 * configured retention.
 * <p>
 * Keys are stored as UTF-8 bytes ({@code bytea}): any key the API accepts, NUL included, is stored verbatim and only
 * ever sent as a bind parameter. This instance's statements on one key run one after the other ({@link OrderedPerKey}),
 * since the pool sends them over several connections, and each is bounded by the operation timeout
 * ({@link BoundedStatements}). The statements wait for the table when the store creates it
 * ({@link PostgresSchema}).
 */
public final class PostgresLockStore extends OneStepReleaseStore {

    /** The store's name, the value of {@code quarkus.lock.provider} that chooses it. */
    public static final String NAME = "postgresql";

    private static final Logger LOG = Logger.getLogger(PostgresLockStore.class);
    /** Leases longer than a century are kept until released: the database's timestamps end in the year 294276. */
    private static final long LONGEST_LEASE_MILLIS = Duration.ofDays(36_500).toMillis();
    private static final int SWEEP_ROWS = 1000;

    private final Vertx vertx;
    private final Pool pool;
    private final PostgresLockStoreSettings settings;
    private final PostgresStatements statements;
    private final BoundedStatements bounded;
    private final PostgresSchema schema;
    private final OrderedPerKey ordered = new OrderedPerKey();
    private final KnownLines knownLines = new KnownLines(System::nanoTime);
    private final String channel;
    private final long sweepEveryMillis;
    private final AtomicBoolean sweeping = new AtomicBoolean();
    /** The sweep's periodic timer while started, or -1. */
    private volatile long sweepTimer = -1;

    /**
     * @param vertx the Vert.x instance, for the release watch's timers
     * @param pool the datasource's pool
     * @param settings how the store works
     */
    public PostgresLockStore(Vertx vertx, Pool pool, PostgresLockStoreSettings settings) {
        this.vertx = vertx;
        this.pool = pool;
        this.settings = settings;
        this.statements = new PostgresStatements(settings.table());
        this.bounded = new BoundedStatements(vertx, pool, settings.operationTimeout(), settings.maxConnections());
        this.schema = new PostgresSchema(bounded, statements, settings.createSchema());
        this.channel = settings.releaseNotifications() ? settings.table().name() : null;
        this.sweepEveryMillis = Math.max(1_000, settings.freeRowRetention().toMillis() / 10);
    }

    /**
     * The lock table's DDL, as the store sends it when it creates the table and as the guide prints it for schema
     * migration tools.
     *
     * @param table the lock table
     * @return an idempotent {@code CREATE TABLE IF NOT EXISTS} statement
     */
    public static String createTableStatement(PostgresTable table) {
        return PostgresStatements.createTable(table.sql());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        Buffer id = id(key);
        long lease = lease(leaseMillis);
        Tuple holder = Tuple.tuple().addBuffer(id).addString(owner).addLong(lease);
        Tuple arguments = waiting
                ? Tuple.tuple().addBuffer(id).addString(owner).addLong(lease).addLong(LockStore.PLACE_MILLIS)
                : holder;
        String sql = statements.acquire(waiting);
        Uni<RowSet<Row>> answered = knownLines.likely(key) ? onRow(key, sql, arguments)
                : onRow(key, statements.grantIfAlone(), holder, sql, arguments);
        return answered.map(rows -> {
            if (rows.size() == 0) {
                return AcquireResult.heldByAnother(-1);
            }
            Row row = rows.iterator().next();
            if (row.getBoolean(0)) {
                return AcquireResult.acquired(row.getLong(1));
            }
            if (waiting) {
                knownLines.seen(key);
            }
            // The row's token is the last one issued for the key: a hand-over announced above it came after this
            // refusal, so the waiter takes it as its grant without asking again.
            return AcquireResult.heldByAnother(row.getLong(2), row.getLong(1));
        });
    }

    /**
     * Takes the lock whoever holds it. A take-over whose caller gave up while it waited behind the key's earlier
     * statements is never sent: sent later, it would take a lock granted since from a holder that keeps working as if
     * it held it.
     */
    @Override
    public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
        Tuple arguments = Tuple.tuple().addBuffer(id(key)).addString(owner).addLong(lease(leaseMillis));
        return overriding(key, statements.takeOver(), arguments)
                .map(rows -> AcquireResult.acquired(rows.iterator().next().getLong(0)));
    }

    /**
     * Frees the lock in one statement: the release, the take-back and the overriding release ({@code owner}
     * {@code null}, sent as {@link #overriding} says). A release or take-back tries the fast path first, which frees a
     * lock the owner holds when nobody is in line, unless this instance lately found a line on the key
     * ({@link KnownLines}).
     */
    @Override
    protected Uni<Boolean> free(String key, String owner) {
        Buffer id = id(key);
        Tuple arguments = Tuple.tuple().addBuffer(id).addString(owner).addString(channel);
        Uni<RowSet<Row>> freed;
        if (owner == null) {
            freed = overriding(key, statements.free(), arguments);
        } else if (knownLines.likely(key)) {
            freed = onRow(key, statements.free(), arguments);
        } else {
            freed = onRow(key, statements.releaseIfAlone(), Tuple.tuple().addBuffer(id).addString(owner),
                    statements.free(), arguments);
        }
        return freed.map(rows -> rows.size() > 0 && rows.iterator().next().getBoolean(0));
    }

    @Override
    public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
        Tuple arguments = Tuple.tuple().addBuffer(id(key)).addString(owner).addLong(lease(leaseMillis));
        return onRow(key, statements.renew(), arguments).map(rows -> rows.rowCount() == 1);
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        Tuple arguments = Tuple.tuple().addBuffer(id(key)).addString(owner);
        return schema.ready()
                .flatMap(ready -> bounded.bounded(c -> c.preparedQuery(statements.isHeld()).execute(arguments)))
                .map(rows -> rows.iterator().next().getBoolean(0));
    }

    /**
     * Reads at most {@code limit} rows of the table in key order after the cursor (the last key the page before
     * read), within the key prefix, and lists the held ones; released rows kept for their fencing counter count
     * toward the limit, so a page may list fewer locks while more follow.
     */
    @Override
    public Uni<LockPage> listHeld(String cursor, int limit) {
        byte[] prefix = settings.keyPrefix().getBytes(StandardCharsets.UTF_8);
        byte[] below = KeyPrefixRange.upperBound(prefix);
        Tuple arguments = Tuple.tuple().addBuffer(id(cursor == null ? "" : cursor))
                .addBuffer(below == null ? null : Buffer.buffer(below)).addInteger(limit);
        return schema.ready()
                .flatMap(ready -> bounded.bounded(c -> c.preparedQuery(statements.listHeld()).execute(arguments)))
                .map(rows -> page(rows, prefix.length, limit));
    }

    private static LockPage page(RowSet<Row> rows, int prefixBytes, int limit) {
        List<HeldLock> held = new ArrayList<>();
        String last = null;
        for (Row row : rows) {
            byte[] stored = row.getBuffer(0).getBytes();
            last = new String(stored, prefixBytes, stored.length - prefixBytes, StandardCharsets.UTF_8);
            long left = row.getLong(3);
            if (left != 0) {
                held.add(new HeldLock(last, row.getString(1), row.getLong(2),
                        left < 0 ? HeldLock.UNTIL_RELEASED : left, row.getInteger(4), null));
            }
        }
        return new LockPage(held, rows.size() < limit ? null : last);
    }

    @Override
    public AutoCloseable watchReleases(ReleaseListener listener) {
        if (channel == null) {
            return super.watchReleases(listener);
        }
        PostgresReleaseWatch watch = new PostgresReleaseWatch(vertx, pool, channel, settings.keyPrefix(), listener,
                settings.operationTimeout());
        watch.start();
        return watch;
    }

    /**
     * Answers when the lock table can be read, so readiness is down while the table is missing too.
     */
    @Override
    public Uni<Void> ping() {
        return schema.ready().flatMap(ready -> bounded.bounded(c -> c.query(statements.ping()).execute()))
                .replaceWithVoid();
    }

    /**
     * Creates the lock table if it is missing and the store may ({@link PostgresSchema}); the first statements wait
     * for it.
     */
    @Override
    public void start() {
        schema.ready().subscribe().with(ignored -> {
        });
        sweepTimer = vertx.setPeriodic(sweepEveryMillis, id -> sweep());
    }

    /** Stops the sweep, and the termination of statements that got no answer. */
    @Override
    public void close() {
        bounded.close();
        long timer = sweepTimer;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
            sweepTimer = -1;
        }
    }

    /**
     * Deletes rows free and unasked for longer than the retention, at most {@value #SWEEP_ROWS} at a time, at most
     * every tenth of the retention (the store's periodic timer; a sweep still running skips its turn). Rows locked by
     * a statement in progress are skipped. A failure (a user without the {@code DELETE} privilege) is logged: the locks
     * work without the sweep, only the table grows.
     */
    void sweep() {
        knownLines.forgetLapsed();
        if (!sweeping.compareAndSet(false, true)) {
            return;
        }
        Tuple arguments = Tuple.of(settings.freeRowRetention().toMillis(), SWEEP_ROWS);
        bounded.bounded(c -> c.preparedQuery(statements.sweep()).execute(arguments))
                .subscribe().with(deleted -> {
                    sweeping.set(false);
                    if (deleted.rowCount() > 0) {
                        LOG.debugf("Deleted %d free lock rows", deleted.rowCount());
                    }
                }, failure -> {
                    sweeping.set(false);
                    LOG.debugf("Could not delete free lock rows: %s", failure.getMessage());
                });
    }

    /**
     * Runs a statement on the key's row once the table is ready and this instance's earlier statements on that row
     * have ended, each bounded by the operation timeout: one that got no answer ends once it can no longer take effect
     * ({@link BoundedStatements#settled}), so the next one on the key, such as its take-back, is not held up for ever.
     */
    private Uni<RowSet<Row>> onRow(String key, String sql, Tuple arguments) {
        return ordered.run(key, () -> schema.ready()
                .flatMap(ready -> bounded.settled(c -> c.preparedQuery(sql).execute(arguments))));
    }

    /**
     * {@link #onRow} for an operation with a fast path: {@code fast}, a statement that reads no waiting line and
     * either decides the operation, answering a row, or changes nothing and answers none, when {@code sql} is sent
     * after it, on the same connection. Each of the two is one statement that decides by itself, atomically; the
     * second runs only when the first changed nothing, so the pair does what {@code sql} alone would. Both are bounded
     * together, from when the first is sent.
     */
    private Uni<RowSet<Row>> onRow(String key, String fast, Tuple fastArguments, String sql, Tuple arguments) {
        return ordered.run(key, () -> schema.ready()
                .flatMap(ready -> bounded.settled(c -> c.preparedQuery(fast).execute(fastArguments)
                        .flatMap(rows -> rows.size() > 0 ? Uni.createFrom().item(rows)
                                : c.preparedQuery(sql).execute(arguments)))));
    }

    /**
     * {@link #onRow} for an overriding statement (a take-over, an overriding release), whose late effect would hit
     * whoever holds the lock by then: once its caller has been told it failed, it is never sent. Sent later, it would
     * take or free a lock granted since, from a holder that keeps working as if it held it. Its caller is told at the
     * operation timeout, counted from this call on, or when it cancels; the statement waits meanwhile behind the
     * key's earlier statements, whose settling may take seconds, and then for a connection of the pool.
     */
    private Uni<RowSet<Row>> overriding(String key, String sql, Tuple arguments) {
        return Uni.createFrom().deferred(() -> {
            long sendBy = System.nanoTime() + settings.operationTimeout().toNanos();
            return ordered.runUnlessGivenUp(key, () -> schema.ready().flatMap(ready -> bounded
                    .settledIfSentBy(sendBy, c -> c.preparedQuery(sql).execute(arguments))));
        });
    }

    /** How many keys have a statement running or waiting in this instance. */
    int busyKeys() {
        return ordered.busyKeys();
    }

    private Buffer id(String key) {
        return Buffer.buffer((settings.keyPrefix() + key).getBytes(StandardCharsets.UTF_8));
    }

    private static long lease(long leaseMillis) {
        return leaseMillis > LONGEST_LEASE_MILLIS ? NO_EXPIRY : leaseMillis;
    }
}
