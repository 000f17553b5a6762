package io.quarkiverse.lock.runtime.store.mongodb;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Default;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.bson.Document;

import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkus.mongodb.MongoClientName;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.runtime.configuration.ConfigurationException;
import io.vertx.core.Vertx;

/**
 * Produces the MongoDB {@link LockStore} on the reactive Quarkus MongoDB client named by
 * {@code quarkus.lock.mongodb.client-name}; a bean only when the build chose the MongoDB store (which also tells the
 * MongoDB extension to create that client).
 */
@Singleton
public class MongoLockStoreProducer {

    @Inject
    @Any
    Instance<ReactiveMongoClient> clients;

    /**
     * @param settings the validated settings
     * @param mongo the store's runtime configuration
     * @param client the store's client configuration
     * @param vertx the application's Vert.x
     * @return the store
     * @throws ConfigurationException if the database, the collection or the write concern is invalid
     */
    @Produces
    @Singleton
    LockStore mongoLockStore(LockSettings settings, MongoLockRuntimeConfig mongo, MongoLockBuildTimeConfig client,
            Vertx vertx) {
        Instance<ReactiveMongoClient> reactiveClient = client.clientName()
                .map(name -> clients.select(MongoClientName.Literal.of(name)))
                .orElseGet(() -> clients.select(Default.Literal.INSTANCE));
        String database = name("quarkus.lock.mongodb.database", mongo.database(), "/\\. \"$");
        String collection = name("quarkus.lock.mongodb.collection", mongo.collection(), "$");
        return new MongoLockStore(vertx, reactiveClient.get().getDatabase(database), new MongoLockStoreSettings(
                collection, settings.keyPrefix(), writeConcern(mongo.writeConcern()), mongo.createIndexes(),
                mongo.releaseNotifications(), settings.operationTimeout()));
    }

    /**
     * @param value {@code majority} or a positive number of members
     * @return the write concern document sent with each write
     * @throws ConfigurationException for any other value
     */
    static Document writeConcern(String value) {
        String trimmed = value.trim();
        if (trimmed.equals("majority")) {
            return new Document("w", "majority");
        }
        if (trimmed.matches("[1-9][0-9]{0,2}")) {
            return new Document("w", Integer.parseInt(trimmed));
        }
        throw new ConfigurationException("quarkus.lock.mongodb.write-concern must be 'majority' or a positive "
                + "number of members, but is '" + value + "'");
    }

    private static String name(String property, String value, String forbidden) {
        if (value.isBlank() || value.indexOf(0) >= 0 || value.chars().anyMatch(c -> forbidden.indexOf(c) >= 0)) {
            throw new ConfigurationException(property + " must be a MongoDB name that is not blank and has none of "
                    + "the characters [" + forbidden + "], but is '" + value + "'");
        }
        return value;
    }
}
