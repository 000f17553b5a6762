package io.quarkiverse.lock.it.inmemory;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * {@link InMemoryLockedMethodsTest} against the packaged application (the jar, or the native executable).
 */
@QuarkusIntegrationTest
class InMemoryLockedMethodsIT extends InMemoryLockedMethodsTest {
}
