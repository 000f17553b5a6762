package io.quarkiverse.lock.runtime.store.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.HandOverAnnouncement;
import io.quarkiverse.lock.spi.LockStore;

/**
 * The decisions of the JDBC store, each within one transaction that first locks the key's row
 * ({@code SELECT ... FOR UPDATE}), so that the transactions on one key are atomic and serialized by the database, and
 * decides from the database's clock, read once per transaction by the statement that locks the row (by
 * {@link JdbcTransaction#now()} only when there is no row yet), so that a pair of acquire and release costs no
 * statement of its own for the clock.
 * <p>
 * The semantics are every store's (the SPI's {@code LockStore}): a free lock goes to the first waiter whose place is
 * live, or to anyone when there is none; a release hands it straight to that waiter; a new fencing token is
 * {@code max(token + 1, now in microseconds)}, strictly above the row's last one and above every token issued before
 * the row was deleted, unless the database clock stepped back by more than the time the row was gone.
 */
final class JdbcLockOperations {

    /**
     * How long a waiter keeps its place in line without asking again, as in every store: waiters ask at least every
     * 64 ms, so only a waiter that gave up without saying so, or whose instance died, loses its place.
     */
    static final long PLACE_MILLIS = 1000;

    private final JdbcStatements sql;

    JdbcLockOperations(JdbcStatements statements) {
        this.sql = statements;
    }

    /**
     * The lock's row as locked by the transaction, and the database's clock when it was locked; {@code queued} is
     * {@code false} only when the key's line holds no live place ({@link JdbcStatements}).
     */
    private record Row(String owner, long token, long heldUntil, boolean queued, long now) {

        boolean heldAt(long now) {
            return owner != null && heldUntil > now;
        }
    }

    /** A waiter's place in line. */
    private record Place(String owner, long place, long until, long leaseMillis) {
    }

    /** What a release did: whether it freed the owner's hold, and to whom it handed the lock, if anyone. */
    record Freed(boolean released, String handedTo, long token) {
    }

    AcquireResult acquire(JdbcTransaction tx, JdbcKey key, String owner, long leaseMillis, boolean waiting)
            throws SQLException {
        Row row = lockOrInsert(tx, key);
        long now = row.now;
        if (waiting && row.heldAt(now) && owner.equals(row.owner)) {
            return AcquireResult.acquired(row.token);
        }
        // a waiter refused reads the line whatever the row says: a lock row deleted by hand leaves its line behind
        List<Place> line = row.queued || (waiting && row.heldAt(now)) ? liveLine(tx, key, now) : List.of();
        Place mine = find(line, owner);
        boolean granted = !row.heldAt(now) && (line.isEmpty() || line.get(0).owner.equals(owner));
        if (granted) {
            long token = Math.max(row.token + 1, now);
            tx.update(sql.updateRow, owner, token, leaseEnd(now, leaseMillis), queued(line, mine, null), now,
                    key.id());
            leave(tx, key, mine);
            return AcquireResult.acquired(token);
        }
        if (!waiting) {
            leave(tx, key, mine);
            return AcquireResult.heldByAnother(remainingMillis(row, line, now), row.token);
        }
        if (mine != null) {
            tx.update(sql.updatePlace, now + PLACE_MILLIS * 1000, leaseMillis, key.id(), owner);
        } else {
            long place = line.isEmpty() ? 1 : line.get(line.size() - 1).place + 1;
            tx.update(sql.insertPlace, key.id(), owner, place, now + PLACE_MILLIS * 1000, leaseMillis);
        }
        if (!row.queued) {
            tx.update(sql.markQueued, key.id());
        }
        return AcquireResult.heldByAnother(remainingMillis(row, line, now), row.token);
    }

    AcquireResult takeOver(JdbcTransaction tx, JdbcKey key, String owner, long leaseMillis) throws SQLException {
        Row row = lockOrInsert(tx, key);
        long now = row.now;
        List<Place> line = queuedLine(tx, key, row);
        Place mine = find(line, owner);
        leave(tx, key, mine);
        long token = Math.max(row.token + 1, now);
        tx.update(sql.updateRow, owner, token, leaseEnd(now, leaseMillis), queued(line, mine, null), now, key.id());
        return AcquireResult.acquired(token);
    }

    /**
     * Grants the lock to {@code owner} when it is free and nobody is in line for it, in one statement outside a
     * transaction, which answers the token it set: the acquisition of an uncontended lock.
     * The statement changes only the key's row, which it locks, and only when the lock is free by the database's clock
     * and the row says the line holds no live place ({@code queued = 0}), the test {@link #releaseAlone} makes, for the
     * same reason; it decides as {@link #acquire} would on that row, which reads no line there either. An acquisition
     * it does not decide (no row yet, a lock held, a line, the owner's own hold) changes nothing and is left to
     * {@link #acquire}.
     *
     * @param leaseMillis the lease, or {@link LockStore#NO_EXPIRY} for a lock held until released
     * @return the grant, or {@code null} if it changed nothing
     */
    AcquireResult grantAlone(JdbcTransaction tx, JdbcKey key, String owner, long leaseMillis) throws SQLException {
        long micros = leaseMicros(leaseMillis);
        Long token = sql.dialect.tokenIsGeneratedKey()
                ? tx.updatedKey(sql.grantAlone, owner, micros, micros, key.id())
                : tx.first(sql.grantAlone, owner, micros, micros, key.id());
        return token == null ? null : AcquireResult.acquired(token);
    }

    /**
     * Releases the lock that {@code owner} holds when nobody is in line for it, in one statement outside a transaction:
     * the release of an uncontended lock. The statement changes only the key's row, which it locks, and only when
     * {@code owner} holds it, its lease runs and the row says the line holds no live place ({@code queued = 0}); so a
     * release that finds anyone in line, or is no release of a live hold, changes nothing and is left to {@link #free}.
     * The test is on the row itself, not on the line's table, because a statement that waited for the row lock sees
     * the row as the transaction before it left it, but the other tables only as they were when it began: a waiter
     * that joined the line meanwhile would be missed, left in line with the lock free and nobody told.
     *
     * @return {@code true} if it released the lock, {@code false} if it changed nothing
     */
    boolean releaseAlone(JdbcTransaction tx, JdbcKey key, String owner) throws SQLException {
        return tx.update(sql.releaseAlone, key.id(), owner) == 1;
    }

    /**
     * Takes {@code owner} out of the line and, if it holds the lock (anyone, for {@code null}), releases it, handing
     * it to the first waiter whose place is live.
     */
    Freed free(JdbcTransaction tx, JdbcKey key, String owner) throws SQLException {
        Row row = lock(tx, key);
        if (row == null) {
            if (owner != null) {
                tx.update(sql.deletePlace, key.id(), owner);
            }
            return new Freed(false, null, 0);
        }
        long now = row.now;
        List<Place> line = queuedLine(tx, key, row);
        if (owner != null) {
            leave(tx, key, find(line, owner));
        }
        if (!row.heldAt(now) || (owner != null && !owner.equals(row.owner))) {
            return new Freed(false, null, 0);
        }
        Place next = null;
        for (Place place : line) {
            if (!place.owner.equals(owner)) {
                next = place;
                break;
            }
        }
        if (next == null) {
            tx.update(sql.freeRow, now, key.id());
            return new Freed(true, null, 0);
        }
        long token = Math.max(row.token + 1, now);
        tx.update(sql.handOver, next.owner, token, leaseEnd(now, next.leaseMillis), queued(line, next, owner), now,
                now, key.id());
        tx.update(sql.deletePlace, key.id(), next.owner);
        return new Freed(true, next.owner, token);
    }

    /**
     * Announces a hand-over on PostgreSQL ({@link JdbcNotificationWatch}), in a statement of its own after the
     * hand-over committed: a failed announcement (a full notification queue, a server without {@code pg_notify}) must
     * not undo the release. Does nothing on another database, or for a key too long to announce.
     *
     * @param handedTo the owner the lock was handed to
     * @param token the token of its hold
     * @return {@code true} if it sent the announcement, {@code false} if there was nothing to send
     */
    boolean announce(JdbcTransaction tx, JdbcKey key, String handedTo, long token) throws SQLException {
        if (sql.announce == null || key.bytes().length > HandOverAnnouncement.LONGEST_KEY_BYTES) {
            return false;
        }
        tx.count(sql.announce, sql.channel, HandOverAnnouncement.of(handedTo, token, key.bytes()));
        return true;
    }

    boolean renew(JdbcTransaction tx, JdbcKey key, String owner, long leaseMillis) throws SQLException {
        long micros = leaseMicros(leaseMillis);
        return tx.update(sql.renew, micros, micros, key.id(), owner) == 1;
    }

    boolean isHeld(JdbcTransaction tx, JdbcKey key, String owner) throws SQLException {
        return tx.count(sql.isHeld, key.id(), owner) > 0;
    }

    /**
     * Deletes the row if it is still free and unasked for since {@code before} (database microseconds).
     *
     * @return {@code true} if it was deleted
     */
    boolean sweep(JdbcTransaction tx, byte[] id, long before) throws SQLException {
        JdbcKey key = new JdbcKey(id, null);
        Row row = lock(tx, key);
        if (row == null || !liveLine(tx, key, row.now).isEmpty()) {
            return false;
        }
        return tx.update(sql.deleteRow, id, before, before) == 1;
    }

    private Row lockOrInsert(JdbcTransaction tx, JdbcKey key) throws SQLException {
        Row row = lock(tx, key);
        if (row != null) {
            return row;
        }
        long now = tx.now();
        // a row another transaction inserts at the same time fails this insert, and the operation is tried again
        tx.update(sql.insertRow, key.id(), key.bytes(), now);
        return new Row(null, 0, 0, false, now);
    }

    private Row lock(JdbcTransaction tx, JdbcKey key) throws SQLException {
        try (PreparedStatement statement = tx.prepare(sql.lockRow)) {
            JdbcTransaction.bind(statement, key.id());
            try (ResultSet rows = statement.executeQuery()) {
                if (!rows.next()) {
                    return null;
                }
                String owner = rows.getString(1);
                long token = rows.getLong(2);
                long heldUntil = rows.getLong(3);
                boolean free = rows.wasNull();
                return new Row(owner, token, free ? 0 : heldUntil, rows.getInt(4) != 0, rows.getLong(5));
            }
        }
    }

    /** The key's line as {@link #liveLine} reads it, or none, unread, when the row says it holds no live place. */
    private List<Place> queuedLine(JdbcTransaction tx, JdbcKey key, Row row) throws SQLException {
        return row.queued ? liveLine(tx, key, row.now) : List.of();
    }

    /** The key's line, in order, without the places that lapsed, which it deletes. */
    private List<Place> liveLine(JdbcTransaction tx, JdbcKey key, long now) throws SQLException {
        List<Place> live = new ArrayList<>();
        boolean lapsed = false;
        try (PreparedStatement statement = tx.prepare(sql.line)) {
            JdbcTransaction.bind(statement, key.id());
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Place place = new Place(rows.getString(1), rows.getLong(2), rows.getLong(3), rows.getLong(4));
                    if (place.until > now) {
                        live.add(place);
                    } else {
                        lapsed = true;
                    }
                }
            }
        }
        if (lapsed) {
            tx.update(sql.deleteLapsed, key.id(), now);
        }
        return live;
    }

    private void leave(JdbcTransaction tx, JdbcKey key, Place place) throws SQLException {
        if (place != null) {
            tx.update(sql.deletePlace, key.id(), place.owner);
        }
    }

    /**
     * @return the row's {@code queued} once the places {@code leaving} and {@code alsoLeaving} (either may be
     *         {@code null}) are out of {@code line}: 1 if any place is left
     */
    private static long queued(List<Place> line, Place leaving, String alsoLeaving) {
        for (Place place : line) {
            if (place != leaving && !place.owner.equals(alsoLeaving)) {
                return 1L;
            }
        }
        return 0L;
    }

    private static Place find(List<Place> line, String owner) {
        for (Place place : line) {
            if (place.owner.equals(owner)) {
                return place;
            }
        }
        return null;
    }

    /**
     * @return how long until the lock may be free for the asking owner, in ms: the holder's remaining lease, else the
     *         first waiter's remaining place, else -1
     */
    private static long remainingMillis(Row row, List<Place> line, long now) {
        if (row.heldAt(now)) {
            return row.heldUntil == JdbcStatements.UNTIL_RELEASED ? Integer.MAX_VALUE
                    : (row.heldUntil - now + 999) / 1000;
        }
        return line.isEmpty() ? -1 : Math.max(1, (line.get(0).until - now) / 1000);
    }

    /** @return the lease in microseconds, bound twice to a statement's lease end; 0 for a lock held until released */
    private static long leaseMicros(long leaseMillis) {
        return leaseMillis == LockStore.NO_EXPIRY ? 0 : leaseMillis * 1000;
    }

    private static long leaseEnd(long now, long leaseMillis) {
        return leaseMillis == LockStore.NO_EXPIRY ? JdbcStatements.UNTIL_RELEASED : now + leaseMillis * 1000;
    }
}
