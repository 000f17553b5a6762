package io.quarkiverse.lock.runtime.store.inmemory;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.spi.LockStore;
import io.vertx.core.Vertx;

/**
 * Produces the in-memory {@link LockStore}; a bean only when the build chose the in-memory store.
 */
@Singleton
public class InMemoryLockStoreProducer {

    /**
     * @param vertx the application's Vert.x, whose timer sweeps expired locks
     * @param settings how often to sweep them ({@code quarkus.lock.expire-evict-idle})
     * @return the store, on a {@link MonotonicClock}, sweeping its expired locks while the registry runs
     */
    @Produces
    @Singleton
    LockStore inMemoryLockStore(Vertx vertx, LockSettings settings) {
        return new InMemoryLockStore(MonotonicClock.system(), vertx, settings.evictIdleInterval());
    }
}
