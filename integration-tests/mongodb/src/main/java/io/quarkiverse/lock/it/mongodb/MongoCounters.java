package io.quarkiverse.lock.it.mongodb;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.bson.Document;

import com.mongodb.client.model.Filters;
import com.mongodb.client.model.ReplaceOptions;

import io.quarkiverse.lock.it.Counters;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.mongodb.reactive.ReactiveMongoCollection;
import io.smallrye.mutiny.Uni;

/**
 * Counters as documents {@code {_id: name, value: n}} in the collection {@code it.counters}, on the server that holds
 * the locks.
 */
@ApplicationScoped
public class MongoCounters implements Counters {

    private static final String VALUE = "value";

    private final ReactiveMongoCollection<Document> counters;

    @Inject
    public MongoCounters(ReactiveMongoClient mongo) {
        this.counters = mongo.getDatabase("it").getCollection("counters");
    }

    @Override
    public Uni<Long> get(String name) {
        return counters.find(Filters.eq("_id", name)).collect().first()
                .map(counter -> counter == null ? 0L : counter.getLong(VALUE));
    }

    @Override
    public Uni<Void> set(String name, long value) {
        return counters.replaceOne(Filters.eq("_id", name), new Document("_id", name).append(VALUE, value),
                new ReplaceOptions().upsert(true)).replaceWithVoid();
    }
}
