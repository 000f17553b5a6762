package io.quarkiverse.lock.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Typed;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Singleton;

import io.quarkiverse.lock.LockAdmin;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.leadership.Leadership;
import io.quarkiverse.lock.migration.LockMigrator;
import io.quarkiverse.lock.runtime.config.LeadershipGroups;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.leadership.DefaultLeadership;
import io.quarkiverse.lock.runtime.leadership.LeadershipEvents;
import io.quarkiverse.lock.runtime.migration.StoreLockMigrator;
import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.runtime.observe.LockObservers;
import io.quarkiverse.lock.runtime.observe.LockTracer;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.StoreLockAdmin;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.IdleLockEvictor;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.runtime.waiting.WaitStrategy;
import io.quarkiverse.lock.spi.LockStore;
import io.vertx.core.Vertx;

/**
 * The beans every store shares: the registry users inject, the wait strategy, the local per-key state and its evictor,
 * and the leadership groups.
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
     * @return the registry, started by {@link LockRecorder#start}, telling the observers present (metrics, Dev UI)
     *         and making spans when a tracer is present (OpenTelemetry); internal code injects it by this type
     */
    @Produces
    @Singleton
    @Typed(DefaultLockRegistry.class)
    DefaultLockRegistry defaultLockRegistry(LockStore store, LockSettings settings, WaitStrategy waitStrategy,
            LocalLockStates states, Vertx vertx, @Any Instance<LockObserver> observers,
            Instance<LockTracer> tracer) {
        return new DefaultLockRegistry(store, settings, waitStrategy, states, vertx,
                LockObservers.of(observers.stream().toList()), tracer.isResolvable() ? tracer.get() : LockTracer.NONE);
    }

    /**
     * @return the registry users inject (and {@code @Locked} uses), application scoped so that a test can replace it
     *         with {@code QuarkusMock.installMockForType(LockRegistryStub.alwaysHeld(), LockRegistry.class)}
     */
    @Produces
    @ApplicationScoped
    LockRegistry lockRegistry(DefaultLockRegistry registry) {
        return registry;
    }

    /**
     * @return the lock-based migrator, on the registry's store
     */
    @Produces
    @ApplicationScoped
    LockMigrator lockMigrator(DefaultLockRegistry registry) {
        return new StoreLockMigrator(registry);
    }

    /**
     * @return the administration of the held locks, on the registry's store
     */
    @Produces
    @ApplicationScoped
    LockAdmin lockAdmin(DefaultLockRegistry registry) {
        return new StoreLockAdmin(registry);
    }

    /**
     * @return the leadership groups, on the registry's locks, joined by {@link LockRecorder#start}; their changes are
     *         fired as CDI events and told to the observers present (metrics)
     */
    @Produces
    @Singleton
    @Typed(DefaultLeadership.class)
    DefaultLeadership defaultLeadership(DefaultLockRegistry registry, LeadershipGroups groups, BeanManager beans) {
        return new DefaultLeadership(registry, new StoreLockAdmin(registry), groups.settings(), groups.enabled(),
                LeadershipEvents.firedBy(beans), registry.observer());
    }

    /**
     * @return the leadership groups users inject
     */
    @Produces
    @ApplicationScoped
    Leadership leadership(DefaultLeadership leadership) {
        return leadership;
    }

    /**
     * @return the idle evictor, started by {@link LockRecorder#start}
     */
    @Produces
    @Singleton
    IdleLockEvictor idleLockEvictor(LocalLockStates states, Vertx vertx, LockSettings settings) {
        return new IdleLockEvictor(states, vertx, settings.evictIdleInterval());
    }
}
