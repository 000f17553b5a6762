package io.quarkiverse.lock.it.redis;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * {@link RedisApplicationTest} against the packaged application (the jar, or the native executable).
 */
@QuarkusIntegrationTest
class RedisApplicationIT extends RedisApplicationTest {
}
