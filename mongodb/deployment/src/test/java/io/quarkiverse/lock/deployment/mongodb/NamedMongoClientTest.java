package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.bson.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkus.mongodb.MongoClientName;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With {@code quarkus.lock.mongodb.client-name}, the locks use that MongoDB client: here the default client points
 * at a port where nothing listens, and the named one at the server.
 */
class NamedMongoClientTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.on("mongodb://127.0.0.1:1")
            .overrideConfigKey("quarkus.mongodb.locking.connection-string", MongoTestServer.sharedConnectionString())
            .overrideConfigKey("quarkus.lock.mongodb.client-name", "locking")
            .overrideConfigKey("quarkus.lock.mongodb.database", "named");

    @Inject
    LockRegistry registry;

    @Inject
    @MongoClientName("locking")
    ReactiveMongoClient locking;

    @Test
    void theLocksLiveWhereTheNamedClientPoints() {
        String key = "named-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        assertThat(lock.acquireOnce().await().atMost(TIMEOUT)).isTrue();

        Document stored = locking.getDatabase("named").getCollection("locks").find(new Document("_id", "lock:" + key))
                .collect().first().await().atMost(TIMEOUT);
        assertThat(stored.getLong("token")).isEqualTo(lock.fencingToken().getAsLong());
        assertThat(lock.release().await().atMost(TIMEOUT)).isTrue();
    }
}
