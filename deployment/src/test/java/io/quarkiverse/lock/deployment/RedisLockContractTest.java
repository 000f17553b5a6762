package io.quarkiverse.lock.deployment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.contract.LockContract;
import io.quarkiverse.lock.test.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The whole contract on the Redis store: a real redis-server, reached through the Quarkus Redis client.
 */
class RedisLockContractTest extends LockContract {

    @RegisterExtension
    static final QuarkusUnitTest APP = new QuarkusUnitTest()
            .withEmptyApplication()
            .overrideConfigKey("quarkus.devservices.enabled", "false")
            .overrideConfigKey("quarkus.redis.hosts", RedisServer.shared().uri());

    @Inject
    LockRegistry registry;

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
    protected long storeSize() {
        try {
            return Long.parseLong(RedisServer.shared().send("DBSIZE").substring(1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
