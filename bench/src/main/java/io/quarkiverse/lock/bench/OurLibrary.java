package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * Quarkus Lock: the application's registry for uncontended pairs, and one registry per contender (its own local
 * state, store and release subscription) for handoffs, so that handoffs cross "instances" through Redis.
 */
final class OurLibrary implements LockLibrary {

    private static final Duration WAIT = Duration.ofMillis(WAIT_MILLIS);
    private static final Duration LEASE = Duration.ofMillis(LEASE_MILLIS);

    private final String name;
    private final LockRegistry registry;
    private final Vertx vertx;
    private final Redis redis;
    private final LockSettings settings;
    private final boolean releaseNotifications;
    private final List<DefaultLockRegistry> instances = new ArrayList<>();

    OurLibrary(String name, LockRegistry registry, Vertx vertx, Redis redis, LockSettings settings,
            boolean releaseNotifications) {
        this.name = name;
        this.registry = registry;
        this.vertx = vertx;
        this.redis = redis;
        this.settings = settings;
        this.releaseNotifications = releaseNotifications;
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
    public synchronized Contender contender(String key, int index) {
        DefaultLockRegistry instance = new DefaultLockRegistry(
                new RedisLockStore(vertx, redis, settings.keyPrefix(), Duration.ofHours(1).toMillis(),
                        releaseNotifications),
                settings, new BackoffWaitStrategy(vertx), new LocalLockStates(), vertx);
        instance.start();
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
        };
    }

    @Override
    public synchronized void close() {
        instances.forEach(DefaultLockRegistry::close);
        instances.clear();
    }
}
