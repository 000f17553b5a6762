package io.quarkiverse.lock.deployment.redis;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.test.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The whole contract on the Redis store: a real redis-server, reached through the Quarkus Redis client.
 */
class RedisLockContractTest extends RedisStoreContract {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withApplicationRoot(root -> root.addClass(RedisStoreContract.class))
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.redis.hosts", RedisServer.shared().uri())
            // every other instance a test starts keeps two connections of the shared client's pool
            .overrideConfigKey("quarkus.redis.max-pool-size", "32");

    @Override
    protected void deleteLock(String key) {
        try {
            RedisServer.shared().send("DEL " + redisKey(key));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
