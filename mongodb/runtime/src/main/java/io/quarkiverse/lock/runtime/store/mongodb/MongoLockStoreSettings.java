package io.quarkiverse.lock.runtime.store.mongodb;

import java.time.Duration;

import org.bson.Document;

/**
 * How a MongoDB store works, validated.
 *
 * @param collection the lock collection's name; release announcements go to {@code <collection>.releases}
 * @param keyPrefix the namespace of lock keys: a document's id is the prefix and the key
 * @param writeConcern the write concern of every lock write, such as {@code {w: "majority"}}
 * @param createIndexes whether the store creates its indexes when it starts
 * @param releaseNotifications whether releases are announced to waiters of other instances
 * @param operationTimeout how long one command may take ({@code quarkus.lock.operation-timeout}), enforced by the
 *        driver
 */
public record MongoLockStoreSettings(String collection, String keyPrefix, Document writeConcern,
        boolean createIndexes, boolean releaseNotifications, Duration operationTimeout) {
}
