package io.quarkiverse.lock.deployment.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import io.quarkiverse.lock.runtime.store.redis.RedisKeys;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.tck.LockStoreTck;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;

/**
 * The whole contract suite on the Redis store and a real redis-server: every instance is a store of its own on one
 * client, so only Redis (and its pub/sub) connects them.
 */
class RedisLockStoreTckTest extends LockStoreTck {

    private final Redis redis = Redis.createClient(vertx(),
            new RedisOptions().setConnectionString(RedisServer.shared().uri()).setMaxPoolSize(32));

    @Override
    public LockStore newStore() {
        return newStoreWithKeyPrefix(settings().keyPrefix());
    }

    @Override
    public LockStore newStoreWithKeyPrefix(String keyPrefix) {
        return new RedisLockStore(vertx(), redis, keyPrefix, Duration.ofHours(1).toMillis(), true);
    }

    @Override
    public void deleteLock(String key) {
        try {
            RedisServer.shared().send("DEL " + RedisKeys.of(settings().keyPrefix(), key).lock());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected void closeBackend() {
        redis.close();
    }
}
