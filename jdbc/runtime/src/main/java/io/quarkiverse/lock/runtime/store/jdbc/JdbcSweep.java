package io.quarkiverse.lock.runtime.store.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * Deletes lock rows free, and unasked for, for longer than the retention, at most {@value #ROWS} at a time, each in a
 * transaction of its own that locks the row and checks again that nobody holds it or waits for it; then the places
 * in line that lapsed that long ago. A failure (a user without the {@code DELETE} privilege) is logged: the locks work
 * without the sweep, only the tables grow.
 */
final class JdbcSweep implements Runnable {

    private static final Logger LOG = Logger.getLogger(JdbcSweep.class);
    private static final int ROWS = 1000;

    private final JdbcDatabase database;
    private final JdbcLockStoreSettings settings;

    /**
     * @param database the database to sweep
     * @param settings the store's settings: the retention of free rows, and the operation timeout that bounds each
     *        of the sweep's transactions
     */
    JdbcSweep(JdbcDatabase database, JdbcLockStoreSettings settings) {
        this.database = database;
        this.settings = settings;
    }

    /**
     * Runs the sweep every tenth of the retention, at least a second apart, the first time after that long.
     *
     * @param scheduler the thread that runs it
     */
    void scheduleOn(ScheduledExecutorService scheduler) {
        long every = Math.max(1_000, settings.freeRowRetention().toMillis() / 10);
        scheduler.scheduleWithFixedDelay(this, every, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void run() {
        try {
            JdbcDatabase.Found found = database.get(deadline());
            JdbcStatements sql = found.statements();
            List<byte[]> candidates = new ArrayList<>();
            long before = found.transactions().run(deadline(), tx -> {
                long threshold = tx.now() - settings.freeRowRetention().toNanos() / 1000;
                try (PreparedStatement query = tx.prepare(sql.sweepCandidates)) {
                    query.setMaxRows(ROWS);
                    JdbcTransaction.bind(query, threshold, threshold);
                    try (ResultSet rows = query.executeQuery()) {
                        while (rows.next()) {
                            candidates.add(rows.getBytes(1));
                        }
                    }
                }
                return threshold;
            });
            int deleted = 0;
            for (byte[] id : candidates) {
                if (found.transactions().run(deadline(), tx -> found.operations().sweep(tx, id, before))) {
                    deleted++;
                }
            }
            found.transactions().run(deadline(), tx -> tx.update(sql.sweepLine, before));
            if (deleted > 0) {
                LOG.debugf("Deleted %d free lock rows", deleted);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.debugf("Could not delete free lock rows: %s", e.getMessage());
        }
    }

    private long deadline() {
        return System.nanoTime() + settings.operationTimeout().toNanos();
    }
}
