package io.quarkiverse.lock.runtime.store.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.spi.ReleaseListener;

/**
 * Tells the registry of this instance of the hand-overs made by every instance: while a waiter of this instance may be
 * in a line, one query every {@code hand-over-poll-interval} for the rows whose {@code handed_at} is recent (an
 * index), whatever the number of waiters; while none can be, no query at all, since a hand-over can only be to a
 * waiter in a line. A transaction takes its time before it commits, so each query looks back
 * {@link #LOOK_BACK_MICROS} further than the last one and skips what it told already. Hand-overs made by this instance are told
 * at once besides
 * ({@link #handedOver}). The registry's waiters keep polling, so a hand-over missed (the database unreachable) only
 * makes a waiter find its lock at its next attempt; the listener is told it may have missed some when the queries
 * work again. On PostgreSQL, the watch also listens to the hand-overs' notifications ({@link JdbcNotificationWatch}),
 * which tell them at once; the polls then catch what a notification missed.
 */
final class JdbcReleaseWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(JdbcReleaseWatch.class);
    /** How far before the last query's time each query looks: longer than a lock transaction takes to commit. */
    private static final long LOOK_BACK_MICROS = 2_000_000;

    private final JdbcDatabase database;
    private final JdbcLockStoreSettings settings;
    private final ReleaseListener listener;
    private final BooleanSupplier waitsInLine;
    /** The hand-overs told, by key, with the time they were made: kept for as long as a query may see them again. */
    private final Map<String, Long> told = new HashMap<>();
    private final ScheduledFuture<?> polls;
    private final JdbcNotificationWatch notifications;
    private long since = -1;
    private boolean failing;
    private volatile boolean closed;

    /**
     * Starts polling at once, and on PostgreSQL listening.
     *
     * @param database the database to poll
     * @param settings the store's settings: the key prefix, how often to poll, and the operation timeout that bounds
     *        each poll
     * @param listener told of the hand-overs and releases
     * @param scheduler runs the polls
     * @param waitsInLine whether a waiter of this instance may be in a line now: the watch queries only then
     */
    JdbcReleaseWatch(JdbcDatabase database, JdbcLockStoreSettings settings, ReleaseListener listener,
            ScheduledExecutorService scheduler, BooleanSupplier waitsInLine) {
        this.database = database;
        this.settings = settings;
        this.listener = listener;
        this.waitsInLine = waitsInLine;
        this.polls = scheduler.scheduleWithFixedDelay(this::poll, 0, settings.handOverPollInterval().toMillis(),
                TimeUnit.MILLISECONDS);
        this.notifications = new JdbcNotificationWatch(database, settings, listener);
    }

    /** A hand-over this instance made, told at once. */
    void handedOver(String key, String owner, long token) {
        if (!closed) {
            listener.handedOver(key, owner, token);
        }
    }

    /** A release this instance made that handed the lock to nobody. */
    void released(String key) {
        if (!closed) {
            listener.released(key);
        }
    }

    @Override
    public void close() {
        closed = true;
        polls.cancel(false);
        notifications.close();
    }

    private void poll() {
        if (closed) {
            return;
        }
        if (!waitsInLine.getAsBoolean()) {
            // the next query that tells looks back from a query made after a waiter joined a line
            since = -1;
            return;
        }
        try {
            long deadline = System.nanoTime() + settings.operationTimeout().toNanos();
            JdbcDatabase.Found found = database.get(deadline);
            found.transactions().read(deadline, tx -> {
                long now = tx.now();
                if (since >= 0) {
                    tell(tx, found.statements(), since - LOOK_BACK_MICROS);
                }
                since = now;
                told.values().removeIf(at -> at < now - 2 * LOOK_BACK_MICROS);
                return null;
            });
            if (failing) {
                failing = false;
                listener.mayHaveMissed();
            }
        } catch (SQLException | RuntimeException e) {
            if (!failing) {
                LOG.debugf("Could not look for lock hand-overs: %s", e.getMessage());
            }
            failing = true;
        }
    }

    private void tell(JdbcTransaction tx, JdbcStatements statements, long after) throws SQLException {
        try (PreparedStatement query = tx.prepare(statements.handedOverSince)) {
            JdbcTransaction.bind(query, after);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next() && !closed) {
                    String stored = new String(rows.getBytes(1), StandardCharsets.UTF_8);
                    if (!stored.startsWith(settings.keyPrefix())) {
                        continue;
                    }
                    String key = stored.substring(settings.keyPrefix().length());
                    String owner = rows.getString(2);
                    long token = rows.getLong(3);
                    long at = rows.getLong(4);
                    Long before = told.put(key, at);
                    if (before != null && before == at) {
                        continue;
                    }
                    if (owner == null) {
                        listener.released(key);
                    } else {
                        listener.handedOver(key, owner, token);
                    }
                }
            }
        }
    }
}
