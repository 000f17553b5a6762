package io.quarkiverse.lock.deployment.mongodb;

import java.util.logging.Level;
import java.util.logging.Logger;

import org.bson.Document;

import com.mongodb.reactivestreams.client.MongoClient;
import com.mongodb.reactivestreams.client.MongoClients;

import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStore;
import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStoreSettings;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.tck.LockStoreTck;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkus.mongodb.impl.ReactiveMongoClientImpl;
import io.quarkus.mongodb.reactive.ReactiveMongoDatabase;

/**
 * The whole contract suite on the MongoDB store: a MongoDB wire-protocol server, behind the strict front that refuses
 * what a real MongoDB server refuses, reached through the MongoDB driver the Quarkus client wraps. Every instance is a
 * store object of its own, so only the database connects them.
 */
class MongoLockStoreTckTest extends LockStoreTck {

    /** The test server logs each duplicate-key error, which is how a taken lock answers: silenced while this runs. */
    private static final Logger TEST_SERVER_LOG = Logger.getLogger("de.bwaldvogel");

    private final Level testServerLevel = TEST_SERVER_LOG.getLevel();
    private final MongoClient client = MongoClients.create(MongoTestServer.sharedConnectionString());
    private final ReactiveMongoDatabase database = new ReactiveMongoClientImpl(client).getDatabase("quarkus_lock");

    MongoLockStoreTckTest() {
        TEST_SERVER_LOG.setLevel(Level.OFF);
    }

    @Override
    public LockStore newStore() {
        return newStoreWithKeyPrefix(settings().keyPrefix());
    }

    @Override
    public LockStore newStoreWithKeyPrefix(String keyPrefix) {
        return new MongoLockStore(vertx(), database, new MongoLockStoreSettings("contract", keyPrefix,
                new Document("w", "majority"), false, true, settings().operationTimeout()));
    }

    @Override
    public void deleteLock(String key) {
        database.getCollection("contract").deleteOne(new Document("_id", settings().keyPrefix() + key)).await()
                .atMost(settings().operationTimeout());
    }

    @Override
    protected void closeBackend() {
        client.close();
        TEST_SERVER_LOG.setLevel(testServerLevel);
    }
}
