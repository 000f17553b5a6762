package io.quarkiverse.lock.it.inmemory;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * {@link InMemoryApplicationTest} against the packaged application (the jar, or the native executable).
 */
@QuarkusIntegrationTest
class InMemoryApplicationIT extends InMemoryApplicationTest {
}
