package io.quarkiverse.lock.deployment.redis;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.testsupport.StaticStateAudit;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Every class of the Redis store whose static state holds randomness, threads, sockets, clock readings or connections
 * is registered for run-time initialization, so a native image can be built and does not ship the build's values.
 */
class RedisStaticStateInitializationTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = RedisTestApp.shared()
            .addBuildChainCustomizer(StaticStateAudit.of(RedisLockStore.class));

    @Test
    void classesWithRandomnessThreadsSocketsClocksOrConnectionsInStaticStateAreInitializedAtRunTime() {
        StaticStateAudit.assertInitializedAtRunTime(RedisLockStore.class);
    }
}
