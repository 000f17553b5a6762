package io.quarkiverse.lock.it.inmemory;

import io.quarkiverse.lock.it.LockedMethodsContract;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The {@code @Locked} endpoints on the in-memory store, the default of an application without a store client.
 */
@QuarkusTest
class InMemoryLockedMethodsTest extends LockedMethodsContract {
}
