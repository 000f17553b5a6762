package io.quarkiverse.lock.runtime.store.inmemory;

import java.time.InstantSource;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkiverse.lock.spi.LockStore;

/**
 * Produces the in-memory {@link LockStore}; a bean only when the build chose the in-memory store.
 */
@Singleton
public class InMemoryLockStoreProducer {

    /**
     * @return the store, on the system clock
     */
    @Produces
    @Singleton
    LockStore inMemoryLockStore() {
        return new InMemoryLockStore(InstantSource.system());
    }
}
