package io.quarkiverse.lock.deployment.redis;

import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkiverse.lock.deployment.spi.LockStoreImplementationBuildItem;
import io.quarkiverse.lock.runtime.store.redis.RedisLockBuildTimeConfig;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStoreProducer;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.builditem.nativeimage.NativeImageResourceDirectoryBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem;
import io.quarkus.redis.deployment.client.RequestedRedisClientBuildItem;
import io.quarkus.redis.runtime.client.config.RedisConfig;

/**
 * Build steps of the Redis store, present whenever {@code quarkus-redis-client} is: when the build chose the Redis
 * store, registers its producer and its Lua scripts (for native images), and asks the Redis extension to create the
 * client it uses.
 */
class RedisLockProcessor {

    @BuildStep
    LockStoreImplementationBuildItem implementation() {
        return new LockStoreImplementationBuildItem(RedisLockStore.NAME, "quarkus-redis-client",
                LockStoreImplementationBuildItem.DEDICATED_CLIENT);
    }

    /**
     * The Redis extension creates the default client only when something injects it, and a named client only for the
     * names it finds on {@code @RedisClientName} or is asked for (as {@code quarkus-redis-cache} asks for its own).
     */
    @BuildStep
    void store(LockStoreBuildItem store, RedisLockBuildTimeConfig client, BuildProducer<AdditionalBeanBuildItem> beans,
            BuildProducer<RequestedRedisClientBuildItem> clients) {
        if (!store.is(RedisLockStore.NAME)) {
            return;
        }
        beans.produce(AdditionalBeanBuildItem.unremovableOf(RedisLockStoreProducer.class));
        clients.produce(new RequestedRedisClientBuildItem(client.clientName().orElse(RedisConfig.DEFAULT_CLIENT_NAME)));
    }

    @BuildStep
    NativeImageResourceDirectoryBuildItem scripts(LockStoreBuildItem store) {
        return store.is(RedisLockStore.NAME)
                ? new NativeImageResourceDirectoryBuildItem(RedisLockStore.SCRIPT_FOLDER)
                : null;
    }

    /**
     * The lock channel reads which event loop a Redis connection belongs to (ConnectionLoop), through the wrapper
     * Quarkus's client puts around it, so that it writes on that loop; without the fields in a native image it still
     * works, writing on a loop of its own.
     */
    @BuildStep
    ReflectiveClassBuildItem connectionLoop(LockStoreBuildItem store) {
        return store.is(RedisLockStore.NAME)
                ? ReflectiveClassBuildItem.builder("io.vertx.redis.client.impl.RedisStandaloneConnection",
                        "io.quarkus.redis.runtime.client.ObservableRedis$ObservableRedisConnection").fields().build()
                : null;
    }
}
