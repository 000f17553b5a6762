package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * Quarkus Lock: one registry for uncontended pairs, and one registry per contender (its own local state, store and
 * release subscription) for handoffs, so that handoffs cross "instances" through the store's server.
 */
final class OurLibrary implements LockLibrary {

    private static final Duration WAIT = Duration.ofMillis(WAIT_MILLIS);
    private static final Duration LEASE = Duration.ofMillis(LEASE_MILLIS);

    private final String name;
    private final LockRegistry registry;
    private final Vertx vertx;
    private final LockSettings settings;
    private final Supplier<LockStore> instanceStores;
    private final List<DefaultLockRegistry> instances = new ArrayList<>();

    /**
     * @param name the library's name in the tables
     * @param registry the registry of the uncontended pairs
     * @param vertx the application's Vert.x
     * @param settings the application's lock settings
     * @param instanceStores makes the store of each contender's registry
     */
    OurLibrary(String name, LockRegistry registry, Vertx vertx, LockSettings settings,
            Supplier<LockStore> instanceStores) {
        this.name = name;
        this.registry = registry;
        this.vertx = vertx;
        this.settings = settings;
        this.instanceStores = instanceStores;
    }

    /**
     * On Redis: the application's registry for uncontended pairs, and a Redis store per contender on {@code redis}, the
     * contenders' client.
     */
    static OurLibrary onRedis(String name, LockRegistry registry, Vertx vertx, Redis redis, LockSettings settings,
            boolean releaseNotifications) {
        return new OurLibrary(name, registry, vertx, settings, () -> new RedisLockStore(vertx, redis,
                settings.keyPrefix(), Duration.ofHours(1).toMillis(), releaseNotifications));
    }

    /**
     * A registry of the library's own over {@code store} for uncontended pairs, closed with the library.
     */
    static OurLibrary standalone(String name, LockStore store, Vertx vertx, LockSettings settings,
            Supplier<LockStore> instanceStores) {
        DefaultLockRegistry registry = start(store, vertx, settings);
        OurLibrary library = new OurLibrary(name, registry, vertx, settings, instanceStores);
        library.instances.add(registry);
        return library;
    }

    private static DefaultLockRegistry start(LockStore store, Vertx vertx, LockSettings settings) {
        DefaultLockRegistry registry = new DefaultLockRegistry(store, settings, new BackoffWaitStrategy(vertx),
                new LocalLockStates(), vertx);
        registry.start();
        return registry;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Uni<Void> acquireAndRelease(String key) {
        ReactiveDistributedLock lock = registry.obtain(key);
        return lock.acquire(Duration.ZERO, LEASE).flatMap(acquired -> lock.release()).replaceWithVoid();
    }

    @Override
    public Waiters waiters(String key) {
        ReactiveDistributedLock holder = registry.obtain(key);
        return new Waiters() {
            @Override
            public void hold() {
                holder.acquire(Duration.ZERO, LEASE).await().atMost(WAIT);
            }

            @Override
            public CompletableFuture<Void> queue(int count) {
                List<CompletableFuture<?>> all = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    ReactiveDistributedLock lock = registry.obtain(key);
                    all.add(lock.acquire(WAIT, LEASE).flatMap(acquired -> lock.release()).subscribeAsCompletionStage());
                }
                return CompletableFuture.allOf(all.toArray(new CompletableFuture[0]));
            }

            @Override
            public void release() {
                holder.release().await().atMost(WAIT);
            }
        };
    }

    @Override
    public synchronized Contender contender(String key, int index) {
        DefaultLockRegistry instance = start(instanceStores.get(), vertx, settings);
        instances.add(instance);
        return new Contender() {
            private ReactiveDistributedLock lock;

            @Override
            public void acquire() {
                lock = instance.obtain(key);
                if (!lock.acquire(WAIT, LEASE).await().indefinitely()) {
                    throw new IllegalStateException("gave up after " + WAIT);
                }
            }

            @Override
            public void release() {
                lock.release().await().indefinitely();
            }

            @Override
            public void close() {
                synchronized (OurLibrary.this) {
                    instances.remove(instance);
                }
                instance.close();
            }
        };
    }

    @Override
    public synchronized void close() {
        instances.forEach(DefaultLockRegistry::close);
        instances.clear();
    }
}
