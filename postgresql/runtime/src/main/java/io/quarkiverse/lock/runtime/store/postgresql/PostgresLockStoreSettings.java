package io.quarkiverse.lock.runtime.store.postgresql;

import java.time.Duration;

/**
 * How a PostgreSQL store works, validated.
 *
 * @param table the lock table
 * @param keyPrefix the namespace of lock keys: a row's key is the prefix and the lock key, in UTF-8
 * @param createSchema whether the store creates its table when it starts and the table is missing
 * @param releaseNotifications whether hand-overs are announced to the waiters of other instances
 * @param freeRowRetention how long a free lock row stays before the sweep deletes it
 * @param operationTimeout how long one operation may take ({@code quarkus.lock.operation-timeout}): the bound of
 *        every statement, and of the release watch's probes
 * @param maxConnections how many of the pool's connections the store's statements hold at once
 *        ({@code quarkus.lock.postgresql.max-connections}), at least 1
 */
public record PostgresLockStoreSettings(PostgresTable table, String keyPrefix, boolean createSchema,
        boolean releaseNotifications, Duration freeRowRetention, Duration operationTimeout, int maxConnections) {

    /**
     * @throws IllegalArgumentException if {@code maxConnections} is below 1
     */
    public PostgresLockStoreSettings {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("quarkus.lock.postgresql.max-connections must be at least 1, not "
                    + maxConnections);
        }
    }

    /**
     * Settings with {@link #defaultMaxConnections() the default number of connections}.
     */
    public PostgresLockStoreSettings(PostgresTable table, String keyPrefix, boolean createSchema,
            boolean releaseNotifications, Duration freeRowRetention, Duration operationTimeout) {
        this(table, keyPrefix, createSchema, releaseNotifications, freeRowRetention, operationTimeout,
                defaultMaxConnections());
    }

    /**
     * @return how many connections the store's statements hold at once unless configured: twice the processors this
     *         JVM may use, at least 4
     */
    public static int defaultMaxConnections() {
        return Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    }
}
