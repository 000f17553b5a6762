package io.quarkiverse.lock.deployment.redis;

import java.time.Duration;
import java.util.List;

import io.quarkiverse.lock.runtime.store.redis.RedisKeys;
import io.quarkiverse.lock.runtime.store.redis.RedisLockStore;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.tck.LockStoreTck;
import io.quarkiverse.lock.testsupport.RedisCluster;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;

/**
 * The whole contract suite on a Redis Cluster of six local nodes (three primaries, three replicas), through a client
 * in cluster mode: every key of a lock shares one hash tag, so each script runs on one node, and the release channel
 * (classic pub/sub) reaches every node.
 */
class RedisClusterLockStoreTckTest extends LockStoreTck {

    private final Redis redis = Redis.createClient(vertx(), new RedisOptions().setType(RedisClientType.CLUSTER)
            .setEndpoints(List.of(RedisCluster.shared().hosts().split(","))).setMaxPoolSize(32).setMaxPoolWaiting(256));

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
        RedisCluster.shared().send("DEL", RedisKeys.of(settings().keyPrefix(), key).lock());
    }

    @Override
    protected void closeBackend() {
        redis.close();
    }
}
