package io.quarkiverse.lock.deployment.redis;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.test.RedisCluster;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The whole contract on a Redis Cluster of six local nodes (three primaries, three replicas), through the Quarkus
 * Redis client in cluster mode: every key of a lock shares one hash tag, so each script runs on one node, and the
 * release channel (classic pub/sub) reaches every node.
 */
class RedisClusterLockContractTest extends RedisStoreContract {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(root -> root.addClass(RedisStoreContract.class))
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.redis.client-type", "cluster")
            .overrideConfigKey("quarkus.redis.hosts", RedisCluster.shared().hosts())
            .overrideConfigKey("quarkus.redis.max-pool-size", "32")
            .overrideConfigKey("quarkus.redis.max-pool-waiting", "256");

    @Override
    protected void deleteLock(String key) {
        RedisCluster.shared().send("DEL", redisKey(key));
    }

    @Override
    protected long storeSize() {
        return RedisCluster.shared().size();
    }
}
