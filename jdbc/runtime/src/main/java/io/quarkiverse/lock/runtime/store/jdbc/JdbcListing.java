package io.quarkiverse.lock.runtime.store.jdbc;

import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import io.quarkiverse.lock.HeldLock;
import io.quarkiverse.lock.LockPage;

/**
 * One page of the held locks of the JDBC store: a keyset page on the primary key, {@code lock_id > ? ORDER BY lock_id}
 * with at most {@code limit} rows (the driver's row limit, which every supported database applies in the server), so
 * a page never reads the whole table. The primary key is a digest, so the rows of every key prefix are mixed: a page
 * lists the rows of its store's prefix that are held now, and the cursor is the hexadecimal digest of the last row it
 * read.
 */
final class JdbcListing {

    private static final HexFormat HEX = HexFormat.of();
    private static final int DIGEST_BYTES = 32;

    private JdbcListing() {
    }

    /**
     * @param after {@code null} for the first page, else the {@link #digest} of the page before's cursor
     * @return the page, read in {@code tx}
     */
    static LockPage page(JdbcTransaction tx, JdbcStatements sql, String keyPrefix, byte[] after, int limit)
            throws SQLException {
        long now = tx.now();
        List<HeldLock> held = new ArrayList<>();
        byte[] last = null;
        int read = 0;
        try (PreparedStatement query = tx.prepare(after == null ? sql.listFirst : sql.listAfter)) {
            query.setMaxRows(limit);
            if (after == null) {
                JdbcTransaction.bind(query, now);
            } else {
                JdbcTransaction.bind(query, now, after);
            }
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    read++;
                    last = rows.getBytes(1);
                    String stored = new String(rows.getBytes(2), StandardCharsets.UTF_8);
                    String owner = rows.getString(3);
                    long heldUntil = rows.getLong(5);
                    if (owner != null && heldUntil > now && stored.startsWith(keyPrefix)) {
                        long left = heldUntil == JdbcStatements.UNTIL_RELEASED ? HeldLock.UNTIL_RELEASED
                                : Math.max(1, (heldUntil - now + 999) / 1000);
                        held.add(new HeldLock(stored.substring(keyPrefix.length()), owner, rows.getLong(4), left,
                                rows.getInt(6), null));
                    }
                }
            }
        }
        return new LockPage(held, read < limit ? null : HEX.formatHex(last));
    }

    /**
     * @param cursor the {@link LockPage#next()} of a page
     * @return the digest of the last row that page read, where the next page starts
     * @throws IllegalArgumentException if the cursor is not one this store made
     */
    static byte[] digest(String cursor) {
        try {
            byte[] digest = HEX.parseHex(cursor);
            if (digest.length == DIGEST_BYTES) {
                return digest;
            }
        } catch (IllegalArgumentException e) {
            // reported below, as any cursor of the wrong shape
        }
        throw new IllegalArgumentException("'" + cursor + "' is not a cursor of the JDBC lock store's listing: "
                + "expected the " + DIGEST_BYTES + " bytes of a row's lock_id in hexadecimal");
    }
}
