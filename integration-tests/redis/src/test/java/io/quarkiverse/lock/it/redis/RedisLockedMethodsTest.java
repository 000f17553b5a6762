package io.quarkiverse.lock.it.redis;

import io.quarkiverse.lock.it.LockedMethodsContract;
import io.quarkiverse.lock.testsupport.RedisServerResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The {@code @Locked} endpoints on the Redis store, against a real {@code redis-server}.
 */
@QuarkusTest
@WithTestResource(RedisServerResource.class)
class RedisLockedMethodsTest extends LockedMethodsContract {
}
