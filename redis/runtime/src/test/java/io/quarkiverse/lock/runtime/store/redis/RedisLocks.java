package io.quarkiverse.lock.runtime.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;

import org.junit.jupiter.api.extension.ExtensionContext;

import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.registry.RegistryFixture;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.testsupport.Pause;
import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.WireProtocol;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;

/**
 * JUnit extension for the Redis store's fault tests: a real redis-server and a Vert.x instance for each
 * test, {@link RedisLockStore}s on them (straight to the server, or through a proxy the test puts in between), and
 * registries whose scripts are loaded before the test goes on. After the test it closes the registries and whatever
 * the test {@linkplain #closeAfterEach(AutoCloseable) handed it} (last first), then Vert.x, then the server.
 */
final class RedisLocks extends RegistryFixture {

    private RedisServer server;

    RedisLocks() {
        super(null, null);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        server = RedisServer.start();
        super.beforeEach(context);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        try {
            super.afterEach(context);
        } finally {
            server.close();
        }
    }

    RedisServer server() {
        return server;
    }

    /** @return a {@link FaultProxy} to the server, with no rules yet, closed after the test */
    FaultProxy faultProxy() {
        return closeAfterEach(FaultProxy.start("127.0.0.1", server.port(), WireProtocol.REDIS));
    }

    /**
     * @param endAfterDelivery see {@link HoldingProxy#HoldingProxy(int, boolean)}
     * @return a {@link HoldingProxy} to the server, holding nothing yet, closed after the test
     */
    HoldingProxy holdingProxy(boolean endAfterDelivery) throws IOException {
        return closeAfterEach(new HoldingProxy(server.port(), endAfterDelivery));
    }

    /** @return a store straight to the server */
    RedisLockStore store() {
        return store(server.uri());
    }

    /** @return a store on its own Redis client to {@code uri} (the server, or a proxy to it), keys under "lock:" */
    RedisLockStore store(String uri) {
        Redis redis = Redis.createClient(vertx(), new RedisOptions().setConnectionString(uri));
        return new RedisLockStore(vertx(), redis, "lock:", Duration.ofHours(1).toMillis(), true);
    }

    /**
     * Starts a registry (lease 30 s, wait 10 s) and loads the scripts of every lock type through it, so that the test
     * sees no {@code NOSCRIPT} round trip; it is closed after the test.
     */
    DefaultLockRegistry registry(LockStore store, Duration operationTimeout) {
        DefaultLockRegistry registry = start(store,
                settings(Duration.ofSeconds(30), Duration.ofSeconds(10), operationTimeout), new LocalLockStates());
        for (LockType type : LockType.values()) {
            ReactiveDistributedLock warmUp = registry.obtain("warm-up", type);
            assertThat(await(warmUp.acquireOnce())).as("scripts loaded").isTrue();
            assertThat(await(warmUp.release())).isTrue();
        }
        return registry;
    }

    /**
     * Asserts that another handle acquires {@code key} soon, which it cannot while an acquisition nobody tracks holds
     * it.
     *
     * @param history what the test did and saw, for the failure's description
     */
    void assertAcquirableSoon(DefaultLockRegistry registry, String key, String history) throws IOException {
        try {
            RegistryFixture.assertAcquirableSoon(registry, key);
        } catch (AssertionError e) {
            throw new AssertionError(history + "; then the lock stayed held (" + keyInRedis(key) + "): "
                    + e.getMessage(), e);
        }
    }

    /** Blocks until Redis holds {@code key}. */
    void awaitHeld(String key) throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!":1".equals(server.send("EXISTS lock:{" + key + "}"))) {
            assertThat(System.nanoTime()).as("acquired").isLessThan(deadline);
            Pause.sleep(20);
        }
    }

    /** @return what Redis holds for the lock {@code key}: "key in Redis: :1, PTTL :29996" */
    String keyInRedis(String key) throws IOException {
        return "key in Redis: " + server.send("EXISTS lock:{" + key + "}") + ", PTTL "
                + server.send("PTTL lock:{" + key + "}");
    }
}
