package io.quarkiverse.lock.it;

import io.quarkus.test.junit.QuarkusTest;

/**
 * The {@code @Locked} endpoints on the in-memory store, the default of an application without a store client.
 */
@QuarkusTest
class InMemoryLockedMethodsTest extends LockedMethodsContract {
}
