package io.quarkiverse.lock.runtime.store.jdbc;

import java.time.Duration;

/**
 * How a JDBC store works, validated.
 *
 * @param table the lock table
 * @param keyPrefix the namespace of lock keys: a row's key is the prefix and the lock key, in UTF-8
 * @param createSchema whether the store creates its tables when it starts and they are missing
 * @param threads how many threads run the store's JDBC calls, positive
 * @param handOverPollInterval how often the release watch looks for hand-overs, positive
 * @param freeRowRetention how long a free lock row stays before the sweep deletes it, positive
 * @param operationTimeout how long one operation may take ({@code quarkus.lock.operation-timeout}): the bound of its
 *        wait for a thread, of its statements ({@code setQueryTimeout}) and of its retries
 */
public record JdbcLockStoreSettings(JdbcTable table, String keyPrefix, boolean createSchema, int threads,
        Duration handOverPollInterval, Duration freeRowRetention, Duration operationTimeout) {
}
