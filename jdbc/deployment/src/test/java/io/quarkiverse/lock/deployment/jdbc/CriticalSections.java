package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;

import javax.sql.DataSource;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.tck.CriticalSectionRace;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Many workers run critical sections on one key of the JDBC store, each incrementing a counter row the unsafe way
 * (read, a short pause, write, in separate transactions on the application's datasource): without mutual exclusion
 * increments would be lost and sections would overlap.
 */
final class CriticalSections {

    static final int WORKERS = 8;
    static final int SECTIONS_PER_WORKER = 500;

    private CriticalSections() {
    }

    /**
     * Runs the race and asserts the counter holds every increment, no section overlapped another, and the fencing
     * tokens rose section after section.
     *
     * @param database the database's name, for the printed line
     */
    static void assertExact(String database, LockRegistry locks, DataSource dataSource) throws SQLException {
        String counter = "counter-" + UUID.randomUUID();
        try (Connection connection = dataSource.getConnection()) {
            connection.createStatement().execute("CREATE TABLE IF NOT EXISTS counters (id VARCHAR(64) NOT NULL "
                    + "PRIMARY KEY, counted BIGINT NOT NULL)");
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO counters VALUES (?, 0)")) {
                insert.setString(1, counter);
                insert.executeUpdate();
            }
        }
        long start = System.nanoTime();
        CriticalSectionRace race = CriticalSectionRace.run(locks, WORKERS, SECTIONS_PER_WORKER,
                () -> blocking(() -> read(dataSource, counter)),
                value -> blocking(() -> write(dataSource, counter, value)).replaceWithVoid());
        long millis = Duration.ofNanos(System.nanoTime() - start).toMillis();

        long counted = read(dataSource, counter);
        assertThat(counted).isEqualTo((long) WORKERS * SECTIONS_PER_WORKER);
        race.assertExclusiveWithRisingTokens(WORKERS * SECTIONS_PER_WORKER);
        System.out.printf("JDBC store on %s: %d workers x %d sections, counter %d, 0 overlaps, in %d ms "
                + "(%.0f sections/s)%n", database, WORKERS, SECTIONS_PER_WORKER, counted, millis,
                WORKERS * SECTIONS_PER_WORKER * 1000.0 / millis);
    }

    private static <T> Uni<T> blocking(Callable<T> work) {
        return Uni.createFrom().item(() -> {
            try {
                return work.call();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private static long read(DataSource dataSource, String counter) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT counted FROM counters WHERE id = ?")) {
            select.setString(1, counter);
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static int write(DataSource dataSource, String counter, long value) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement update = connection.prepareStatement("UPDATE counters SET counted = ? WHERE id = ?")) {
            update.setLong(1, value);
            update.setString(2, counter);
            return update.executeUpdate();
        }
    }
}
