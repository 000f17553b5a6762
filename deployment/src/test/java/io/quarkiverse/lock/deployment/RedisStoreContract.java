package io.quarkiverse.lock.deployment;

import java.time.Duration;

import jakarta.inject.Inject;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.contract.LockContract;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.redis.RedisKeys;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.runtime.waiting.WaitStrategy;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * The contract on the Redis store, whatever the deployment (one server, a cluster): another instance is a second
 * registry with its own local state and its own store on the same Redis client, so only Redis (and its pub/sub)
 * connects the two. Subclasses start the application and read the store.
 */
abstract class RedisStoreContract extends LockContract {

    @Inject
    LockRegistry registry;

    @Inject
    LockSettings settings;

    @Inject
    Vertx vertx;

    @Inject
    Redis redis;

    @Override
    protected LockRegistry registry() {
        return registry;
    }

    @Override
    protected DefaultLockRegistry startInstance(WaitStrategy waitStrategy) {
        RedisLockStore store = new RedisLockStore(vertx, redis, settings.keyPrefix(), Duration.ofHours(1).toMillis(),
                true);
        DefaultLockRegistry instance = new DefaultLockRegistry(store, settings, waitStrategy, new LocalLockStates(),
                vertx);
        instance.start();
        return instance;
    }

    @Override
    protected Vertx vertx() {
        return vertx;
    }

    /**
     * @param key a lock key
     * @return the Redis key of that lock
     */
    protected String redisKey(String key) {
        return RedisKeys.of(settings.keyPrefix(), key).lock();
    }
}
