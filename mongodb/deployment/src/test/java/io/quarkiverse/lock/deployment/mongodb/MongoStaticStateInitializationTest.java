package io.quarkiverse.lock.deployment.mongodb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.store.mongodb.MongoLockStore;
import io.quarkiverse.lock.testsupport.StaticStateAudit;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Every class of the MongoDB store whose static state holds randomness, threads, sockets, clock readings or
 * connections is registered for run-time initialization, so a native image can be built and does not ship the
 * build's values.
 */
class MongoStaticStateInitializationTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = MongoTestApp.shared()
            .addBuildChainCustomizer(StaticStateAudit.of(MongoLockStore.class));

    @Test
    void classesWithRandomnessThreadsSocketsClocksOrConnectionsInStaticStateAreInitializedAtRunTime() {
        StaticStateAudit.assertInitializedAtRunTime(MongoLockStore.class);
    }
}
