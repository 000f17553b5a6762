package io.quarkiverse.lock.deployment.mongodb;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.bson.Document;

import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStore;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStoreSettings;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.vertx.core.Vertx;

/**
 * The lock stores and registries of other instances of the test application, on its MongoDB client: each has its own
 * store and local lock states, with the application's key prefix and operation timeout, {@code majority} writes and no
 * index creation, so that it learns of the application's locks only through the server.
 */
@Singleton
class MongoInstances {

    @Inject
    LockSettings settings;

    @Inject
    Vertx vertx;

    @Inject
    ReactiveMongoClient mongo;

    /**
     * @param database the lock database
     * @param releaseNotifications whether the store announces its releases and may watch the others'
     * @return another instance's store, on the collection {@code locks}
     */
    MongoLockStore store(String database, boolean releaseNotifications) {
        return new MongoLockStore(vertx, mongo.getDatabase(database), new MongoLockStoreSettings("locks",
                settings.keyPrefix(), new Document("w", "majority"), false, releaseNotifications,
                settings.operationTimeout()));
    }

    /**
     * @param database the lock database, the application's own ({@code quarkus.lock.mongodb.database})
     * @return the registry of another instance, with release notifications, started; the test closes it
     */
    DefaultLockRegistry start(String database) {
        DefaultLockRegistry registry = new DefaultLockRegistry(store(database, true), settings,
                new BackoffWaitStrategy(vertx), new LocalLockStates(), vertx);
        registry.start();
        return registry;
    }
}
