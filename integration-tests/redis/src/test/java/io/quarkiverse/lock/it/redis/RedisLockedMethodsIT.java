package io.quarkiverse.lock.it.redis;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * {@link RedisLockedMethodsTest} against the packaged application (the jar, or the native executable).
 */
@QuarkusIntegrationTest
class RedisLockedMethodsIT extends RedisLockedMethodsTest {
}
