package io.quarkiverse.lock.deployment;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.contract.LockContract;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.local.LocalLockStates;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.runtime.wait.WaitStrategy;
import io.quarkiverse.lock.test.RedisCluster;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * The whole contract on a Redis Cluster of six local nodes (three primaries, three replicas), through the Quarkus
 * Redis client in cluster mode: every key of a lock shares one hash tag, so each script runs on one node, and the
 * release channel (classic pub/sub) reaches every node.
 */
class RedisClusterLockContractTest extends LockContract {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.redis.client-type", "cluster")
            .overrideConfigKey("quarkus.redis.hosts", RedisCluster.shared().hosts())
            .overrideConfigKey("quarkus.redis.max-pool-size", "32")
            .overrideConfigKey("quarkus.redis.max-pool-waiting", "256");

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
    protected void letLeasesRunOut(Duration lease) {
        try {
            Thread.sleep(lease.plusMillis(100).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
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
    protected void deleteLock(String key) {
        RedisCluster.shared().send("DEL", settings.keyPrefix() + "{" + key + "}");
    }

    @Override
    protected Vertx vertx() {
        return vertx;
    }

    @Override
    protected long storeSize() {
        return RedisCluster.shared().size();
    }
}
