package io.quarkiverse.lock.runtime.store.jdbc;

import java.util.List;

/**
 * The SQL the JDBC store sends, in one place. Two tables, whose DDL {@link JdbcDialect#createTables} gives:
 *
 * <pre>
 * quarkus_lock: one row per lock key, kept after release so that its fencing counter survives
 *   lock_id    SHA-256 of the key prefix + lock key, UTF-8: the primary key, of one size for any key
 *   lock_key   the key prefix + lock key, UTF-8, verbatim (NUL included)
 *   owner      the holding acquisition's owner id; NULL when released
 *   token      the last fencing token issued for the key
 *   held_until when the lease ends, in database microseconds (Long.MAX_VALUE: held until released)
 *   handed_at  when a release last handed the lock to a waiter, for the release watches of other instances
 *   queued     1 while the line may hold a live place, 0 when it surely holds none: the transaction that adds a place
 *              sets it, one that finds the line empty clears it, and the one-statement release runs only on 0
 *   changed_at database time of the last change, for the sweep
 * quarkus_lock_line: the waiters of a key, in the order of place; a waiter's place lapses at place_until
 *   lock_id, owner, place, place_until (database microseconds), lease_millis (the lease it asked for)
 * </pre>
 *
 * Times are counts of microseconds of the database's clock ({@link JdbcDialect#nowMicros()}), read by the
 * transaction that uses them: no client clock ever decides a lease or a place. The line's rows of a key are only read
 * and written by a transaction that holds the key's row lock ({@code SELECT ... FOR UPDATE}), so they need no locks of
 * their own; reading them {@code FOR UPDATE} too keeps them current under MariaDB's default {@code REPEATABLE READ}.
 * On PostgreSQL, a hand-over is also announced on the table's channel ({@link #announce}, {@link JdbcNotificationWatch}).
 * Every value is a bind parameter; the table's name, checked by {@link JdbcTable}, is the only text put into the SQL.
 */
final class JdbcStatements {

    /**
     * @param table the lock table
     * @return the PostgreSQL notification channel of its hand-overs ({@link JdbcNotificationWatch}): its name without
     *         the schema, which fits a channel's 63 bytes ({@link JdbcTable}'s names are at most 58)
     */
    static String channel(JdbcTable table) {
        return table.name();
    }

    /** The {@code held_until} of a lock held until it is released. */
    static final long UNTIL_RELEASED = Long.MAX_VALUE;

    final JdbcDialect dialect;
    final List<String> createTables;
    final String now;
    final String begin;
    final String commit;
    final String rollback;
    final String lockRow;
    final String insertRow;
    final String updateRow;
    final String freeRow;
    final String grantAlone;
    final String releaseAlone;
    final String markQueued;
    final String handOver;
    final String channel;
    final String announce;
    final String line;
    final String insertPlace;
    final String updatePlace;
    final String deletePlace;
    final String deleteLapsed;
    final String renew;
    final String isHeld;
    final String ping;
    final String handedOverSince;
    final String sweepCandidates;
    final String deleteRow;
    final String sweepLine;
    final String listFirst;
    final String listAfter;

    /**
     * @param dialect the database's dialect
     * @param table the lock table
     */
    JdbcStatements(JdbcDialect dialect, JdbcTable table) {
        String t = table.sql();
        String l = table.lineSql();
        String now = dialect.nowMicros();
        // the lease end of a lease bound twice in microseconds, 0 for a lock held until released
        String leaseEnd = "CASE WHEN ? = 0 THEN " + UNTIL_RELEASED + " ELSE " + now + " + ? END";
        this.dialect = dialect;
        this.createTables = dialect.createTables(table);
        this.now = "SELECT " + now;
        this.begin = "START TRANSACTION";
        this.commit = "COMMIT";
        this.rollback = "ROLLBACK";
        this.lockRow = "SELECT owner, token, held_until, queued, " + now + " FROM " + t + " WHERE lock_id = ? FOR UPDATE";
        this.insertRow = "INSERT INTO " + t
                + " (lock_id, lock_key, owner, token, held_until, handed_at, queued, changed_at)"
                + " VALUES (?, ?, NULL, 0, NULL, NULL, 0, ?)";
        this.updateRow = "UPDATE " + t
                + " SET owner = ?, token = ?, held_until = ?, queued = ?, changed_at = ? WHERE lock_id = ?";
        this.freeRow = "UPDATE " + t + " SET owner = NULL, held_until = NULL, queued = 0, changed_at = ? WHERE lock_id = ?";
        this.grantAlone = dialect.returningToken("UPDATE " + t + " SET owner = ?, token = "
                + dialect.keptToken("GREATEST(token + 1, " + now + ")") + ", held_until = " + leaseEnd
                + ", changed_at = " + now
                + " WHERE lock_id = ? AND queued = 0 AND (owner IS NULL OR held_until <= " + now + ")");
        this.releaseAlone = "UPDATE " + t + " SET owner = NULL, held_until = NULL, changed_at = " + now
                + " WHERE lock_id = ? AND owner = ? AND held_until > " + now + " AND queued = 0";
        this.markQueued = "UPDATE " + t + " SET queued = 1 WHERE lock_id = ?";
        this.handOver = "UPDATE " + t
                + " SET owner = ?, token = ?, held_until = ?, queued = ?, changed_at = ?, handed_at = ? WHERE lock_id = ?";
        this.channel = channel(table);
        this.announce = dialect == JdbcDialect.POSTGRESQL ? "SELECT 1 FROM pg_notify(?, ?)" : null;
        this.line = "SELECT owner, place, place_until, lease_millis FROM " + l + " WHERE lock_id = ? ORDER BY place"
                + " FOR UPDATE";
        this.insertPlace = "INSERT INTO " + l
                + " (lock_id, owner, place, place_until, lease_millis) VALUES (?, ?, ?, ?, ?)";
        this.updatePlace = "UPDATE " + l + " SET place_until = ?, lease_millis = ? WHERE lock_id = ? AND owner = ?";
        this.deletePlace = "DELETE FROM " + l + " WHERE lock_id = ? AND owner = ?";
        this.deleteLapsed = "DELETE FROM " + l + " WHERE lock_id = ? AND place_until <= ?";
        this.renew = "UPDATE " + t + " SET held_until = " + leaseEnd + ", changed_at = " + now
                + " WHERE lock_id = ? AND owner = ? AND held_until > " + now;
        this.isHeld = "SELECT COUNT(*) FROM " + t + " WHERE lock_id = ? AND owner = ? AND held_until > " + now;
        this.ping = "SELECT COUNT(*) FROM " + t + " WHERE 1 = 0";
        this.handedOverSince = "SELECT lock_key, owner, token, handed_at FROM " + t + " WHERE handed_at > ?";
        this.sweepCandidates = "SELECT lock_id FROM " + t
                + " WHERE changed_at < ? AND (owner IS NULL OR held_until < ?)";
        this.deleteRow = "DELETE FROM " + t
                + " WHERE lock_id = ? AND changed_at < ? AND (owner IS NULL OR held_until < ?)";
        this.sweepLine = "DELETE FROM " + l + " WHERE place_until < ?";
        String list = "SELECT r.lock_id, r.lock_key, r.owner, r.token, r.held_until, (SELECT COUNT(*) FROM " + l
                + " p WHERE p.lock_id = r.lock_id AND p.place_until > ?) FROM " + t + " r";
        this.listFirst = list + " ORDER BY r.lock_id";
        this.listAfter = list + " WHERE r.lock_id > ? ORDER BY r.lock_id";
    }
}
