package io.quarkiverse.lock.deployment.mongodb;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With only the MongoDB client present (no Redis client) and no provider configured, the locks live in MongoDB.
 */
class MongoStoreChosenTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.shared();

    @Inject
    DefaultLockRegistry registry;

    @Test
    void theMongoDbStoreIsChosen() {
        assertThat(registry.store().name()).isEqualTo("mongodb");
    }
}
