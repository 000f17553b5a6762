package io.quarkiverse.lock.runtime;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.local.IdleLockEvictor;
import io.quarkiverse.lock.runtime.local.LocalLockStates;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.LockStore;
import io.quarkiverse.lock.runtime.wait.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.wait.WaitStrategy;
import io.vertx.core.Vertx;

/**
 * The beans every store shares: the registry users inject, the wait strategy, the local per-key state and its evictor.
 * The {@link LockStore} bean comes from the producer of the store the build chose.
 */
@Singleton
public class LockProducers {

    /**
     * @return the local per-key state, shared by the registry and the evictor
     */
    @Produces
    @Singleton
    LocalLockStates localLockStates() {
        return new LocalLockStates();
    }

    /**
     * @param vertx the application's Vert.x, whose timers drive the pauses
     * @return how waiting acquisitions pause
     */
    @Produces
    @Singleton
    WaitStrategy waitStrategy(Vertx vertx) {
        return new BackoffWaitStrategy(vertx);
    }

    /**
     * @return the registry users inject (as {@link LockRegistry}), started by {@link LockRecorder#start}
     */
    @Produces
    @Singleton
    DefaultLockRegistry lockRegistry(LockStore store, LockSettings settings, WaitStrategy waitStrategy,
            LocalLockStates states, Vertx vertx) {
        return new DefaultLockRegistry(store, settings, waitStrategy, states, vertx);
    }

    /**
     * @return the idle evictor, started by {@link LockRecorder#startEvictor}
     */
    @Produces
    @Singleton
    IdleLockEvictor idleLockEvictor(LocalLockStates states, LockStore store, Vertx vertx, LockSettings settings) {
        return new IdleLockEvictor(states, store, vertx, settings.evictIdleInterval());
    }
}
