package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.StoreReadiness;
import io.quarkiverse.lock.testsupport.mongo.MongoFaults;
import io.quarkus.mongodb.reactive.ReactiveMongoClient;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code write-concern=2} on a replica set with one data-bearing member: MongoDB would apply every lock write and then
 * answer it with a {@code writeConcernError}. The store checks the write concern against the deployment: readiness
 * is down naming the property, and lock operations fail at once, sending nothing.
 */
class MongoUnsatisfiableWriteConcernTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.on(MongoTestServer.ownedBy(MongoUnsatisfiableWriteConcernTest.class))
            .overrideConfigKey("quarkus.lock.mongodb.write-concern", "2");

    @Inject
    LockRegistry registry;

    @Inject
    ReactiveMongoClient mongo;

    @Test
    void readinessIsDownAndLockOperationsFailAtOnceWithoutWritingAnything() {
        StoreReadiness.assertDown("mongodb", "quarkus.lock.mongodb.write-concern=2",
                "Not enough data-bearing nodes");

        long grantsBefore = faults().received("findAndModify");
        assertThatThrownBy(() -> registry.obtain("unsatisfiable").acquireOnce().await().atMost(TIMEOUT))
                .isInstanceOf(LockException.class)
                .hasMessageContaining("unsatisfiable")
                .hasMessageContaining("quarkus.lock.mongodb.write-concern=2");
        assertThat(faults().received("findAndModify")).as("nothing sent").isEqualTo(grantsBefore);
        assertThat(mongo.getDatabase("quarkus_lock").getCollection("locks").countDocuments().await().atMost(TIMEOUT))
                .isZero();
    }

    private static MongoFaults faults() {
        return MongoTestServer.faultsOf(MongoUnsatisfiableWriteConcernTest.class);
    }
}
