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
 */
public record PostgresLockStoreSettings(PostgresTable table, String keyPrefix, boolean createSchema,
        boolean releaseNotifications, Duration freeRowRetention, Duration operationTimeout) {
}
