package io.quarkiverse.lock.deployment;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import io.quarkiverse.lock.test.RedisServer;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Redis;

/**
 * The whole contract on the Redis store: a real redis-server, reached through the Quarkus Redis client. Another
 * instance is a second registry with its own local state, so only Redis (and its pub/sub) connects the two.
 */
class RedisLockContractTest extends LockContract {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.redis.hosts", RedisServer.shared().uri())
            // every other instance a test starts keeps two connections of the shared client's pool
            .overrideConfigKey("quarkus.redis.max-pool-size", "32");

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
        try {
            RedisServer.shared().send("DEL " + settings.keyPrefix() + "{" + key + "}");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected Vertx vertx() {
        return vertx;
    }

    @Override
    protected long storeSize() {
        try {
            return Long.parseLong(RedisServer.shared().send("DBSIZE").substring(1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
