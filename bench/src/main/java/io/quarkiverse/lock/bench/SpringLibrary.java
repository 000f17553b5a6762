package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;

import io.smallrye.mutiny.Uni;

/**
 * Spring Integration's {@code RedisLockRegistry} 7.1.2 on Spring Data Redis with Jedis (Lettuce 7 needs Netty 4.2,
 * which cannot share a JVM with Quarkus' Netty 4.1): its blocking API on a thread pool for uncontended pairs, and one
 * registry per contender (its own client id) for handoffs.
 */
final class SpringLibrary implements LockLibrary {

    /** The connections the handoff's registries may take beside the callers': subscriptions and their commands. */
    private static final int INSTANCE_CONNECTIONS = 512;

    private final RedisLockRegistry.RedisLockType type;
    private final JedisConnectionFactory connections;
    private final RedisLockRegistry registry;
    private final ExecutorService pool;
    private final List<RedisLockRegistry> instances = new ArrayList<>();

    SpringLibrary(int port, RedisLockRegistry.RedisLockType type, int threads) {
        this.type = type;
        GenericObjectPoolConfig<Object> pool = new GenericObjectPoolConfig<>();
        // Each PUB_SUB_LOCK registry keeps a connection for its subscription, and the handoff's registries stay
        // until the library closes: room for them, and a bounded wait instead of a hang if that is not enough.
        pool.setMaxTotal(threads * 2 + INSTANCE_CONNECTIONS);
        pool.setMaxIdle(threads * 2 + INSTANCE_CONNECTIONS);
        pool.setMaxWait(Duration.ofMillis(WAIT_MILLIS));
        this.connections = new JedisConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port),
                JedisClientConfiguration.builder().usePooling().poolConfig(pool).build());
        this.connections.afterPropertiesSet();
        this.connections.start();
        this.registry = registry("bench-spring");
        this.pool = Executors.newFixedThreadPool(threads);
    }

    /**
     * @param registryKey names the registry's keys and its release channel, which every registry of that name hears
     */
    private RedisLockRegistry registry(String registryKey) {
        RedisLockRegistry created = new RedisLockRegistry(connections, registryKey, LEASE_MILLIS);
        created.setRedisLockType(type);
        return created;
    }

    @Override
    public String name() {
        return "Spring RedisLockRegistry 7.1.2 " + type;
    }

    @Override
    public Uni<Void> acquireAndRelease(String key) {
        return BlockingLocks.tryLockAndUnlock(() -> registry.obtain(key), pool);
    }

    @Override
    public Waiters waiters(String key) {
        return BlockingLocks.waiters(() -> registry.obtain(key));
    }

    @Override
    public synchronized Contender contender(String key, int index) {
        // A registry name per handoff key: the registries of other numbers of instances, kept until the library
        // closes, do not hear this key's releases.
        RedisLockRegistry instance = registry("bench-spring-" + key);
        instances.add(instance);
        // Kept until the library closes: destroying a registry after its run broke the next run's PUB_SUB_LOCK
        // contenders ("Lock was released in the store due to expiration").
        return BlockingLocks.contender(instance.obtain(key));
    }

    @Override
    public synchronized void close() {
        instances.forEach(RedisLockRegistry::destroy);
        registry.destroy();
        pool.shutdownNow();
        connections.destroy();
    }
}
