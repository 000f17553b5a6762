package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkiverse.lock.testsupport.StoreReadiness;
import io.quarkiverse.lock.testsupport.mongo.MongoTopology;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code write-concern=2} on a standalone server, which refuses it: readiness is down naming the property and the
 * server's reason, and lock operations fail with the same message.
 */
class MongoStandaloneWriteConcernTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp
            .on(MongoTestServer.ownedBy(MongoStandaloneWriteConcernTest.class, MongoTopology.STANDALONE))
            .overrideConfigKey("quarkus.lock.mongodb.write-concern", "2");

    @Inject
    LockRegistry registry;

    @Test
    void readinessIsDownAndOperationsFailNamingTheProperty() {
        StoreReadiness.assertDown("mongodb", "quarkus.lock.mongodb.write-concern=2",
                "cannot use 'w' > 1 when a host is not replicated");
        assertThatThrownBy(() -> registry.obtain("standalone-w2").acquireOnce().await().atMost(TIMEOUT))
                .isInstanceOf(LockException.class)
                .hasMessageContaining("quarkus.lock.mongodb.write-concern=2");
    }
}
