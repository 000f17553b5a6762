package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.mongodb.client.model.UpdateOptions;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.tck.CriticalSectionRace;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.mongodb.reactive.ReactiveMongoCollection;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Many workers run critical sections on one key of the MongoDB store, each incrementing a counter document the unsafe
 * way (read, a short pause, write): without mutual exclusion increments would be lost.
 */
class MongoCriticalSectionTest {

    private static final int WORKERS = 8;
    private static final int SECTIONS_PER_WORKER = 500;

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.shared();

    @Inject
    LockRegistry locks;

    @Inject
    ReactiveMongoClient mongo;

    @Test
    void eightWorkersRunningFiveHundredSectionsEachLoseNoIncrementAndNeverOverlap() {
        ReactiveMongoCollection<Document> counters = mongo.getDatabase("it").getCollection("counters");
        Document counter = new Document("_id", "counter-" + UUID.randomUUID());

        CriticalSectionRace race = CriticalSectionRace.run(locks, WORKERS, SECTIONS_PER_WORKER,
                () -> counters.find(counter).collect().first()
                        .map(found -> found == null ? null : found.getLong("value")),
                value -> counters.updateOne(counter, new Document("$set", new Document("value", value)),
                        new UpdateOptions().upsert(true)).replaceWithVoid());

        assertThat(counters.find(counter).collect().first().await().atMost(Duration.ofSeconds(10)).getLong("value"))
                .isEqualTo((long) WORKERS * SECTIONS_PER_WORKER);
        race.assertExclusiveWithRisingTokens(WORKERS * SECTIONS_PER_WORKER);
    }
}
