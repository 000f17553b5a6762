package io.quarkiverse.lock.deployment.mongodb;

import java.time.Duration;

import jakarta.inject.Inject;

import org.bson.Document;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.contract.LockContract;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStore;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStoreSettings;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.runtime.waiting.WaitStrategy;
import io.quarkiverse.lock.test.MongoTestServer;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.mongodb.reactive.ReactiveMongoCollection;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;

/**
 * The whole contract on the MongoDB store: a MongoDB wire-protocol server, behind the strict front that refuses what
 * a real MongoDB server refuses, reached through the real Quarkus MongoDB client. Another instance is a second
 * registry with its own local state and its own store object, so only the database connects the two.
 */
class MongoLockContractTest extends LockContract {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.mongodb.connection-string", MongoTestServer.sharedConnectionString())
            .overrideConfigKey("quarkus.lock.mongodb.collection", "contract")
            // the test server logs each duplicate-key error, which is how a taken lock answers
            .overrideConfigKey("quarkus.log.category.\"de.bwaldvogel\".level", "OFF");

    @Inject
    LockRegistry registry;

    @Inject
    LockSettings settings;

    @Inject
    Vertx vertx;

    @Inject
    ReactiveMongoClient mongo;

    @Override
    protected LockRegistry registry() {
        return registry;
    }

    @Override
    protected DefaultLockRegistry startInstance(WaitStrategy waitStrategy) {
        MongoLockStore store = new MongoLockStore(vertx, mongo.getDatabase("quarkus_lock"),
                new MongoLockStoreSettings("contract", settings.keyPrefix(), new Document("w", "majority"), false, true,
                        settings.operationTimeout()));
        DefaultLockRegistry instance = new DefaultLockRegistry(store, settings, waitStrategy, new LocalLockStates(),
                vertx);
        instance.start();
        return instance;
    }

    @Override
    protected void deleteLock(String key) {
        locks().deleteOne(new Document("_id", settings.keyPrefix() + key)).await().atMost(TIMEOUT);
    }

    @Override
    protected Vertx vertx() {
        return vertx;
    }

    @Override
    protected long storeSize() {
        return locks().countDocuments().await().atMost(TIMEOUT);
    }

    private ReactiveMongoCollection<Document> locks() {
        return mongo.getDatabase("quarkus_lock").getCollection("contract");
    }
}
