package io.quarkiverse.lock.it.inmemory;

import io.quarkiverse.lock.it.LockApplicationContract;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The registry, the startup migration, health and metrics on the in-memory store, the default of an application
 * without a store client.
 */
@QuarkusTest
class InMemoryApplicationTest extends LockApplicationContract {

    @Override
    protected String store() {
        return "in-memory";
    }
}
