package io.quarkiverse.lock.it.redis;

import io.quarkiverse.lock.it.LockApplicationContract;
import io.quarkiverse.lock.testsupport.RedisServerResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The registry, the startup migration, health and metrics on the Redis store, against a real {@code redis-server}.
 */
@QuarkusTest
@WithTestResource(RedisServerResource.class)
class RedisApplicationTest extends LockApplicationContract {

    @Override
    protected String store() {
        return "redis";
    }
}
