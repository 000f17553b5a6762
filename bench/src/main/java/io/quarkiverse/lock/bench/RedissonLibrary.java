package io.quarkiverse.lock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RLockAsync;
import org.redisson.api.RLockReactive;
import org.redisson.api.RedissonClient;
import org.redisson.api.RedissonReactiveClient;
import org.redisson.config.Config;

import io.smallrye.mutiny.Uni;

/**
 * Redisson 3.52.0: {@code RLockReactive} for uncontended pairs (an explicit owner id per pair, as reactive code
 * must), and one Redisson client per contender for handoffs.
 */
final class RedissonLibrary implements LockLibrary {

    private final String address;
    private final RedissonClient shared;
    private final RedissonReactiveClient reactive;
    private final AtomicLong owners = new AtomicLong();
    private final List<RedissonClient> instances = new ArrayList<>();

    RedissonLibrary(String address, int connections) {
        this.address = address;
        this.shared = Redisson.create(config(address, connections));
        this.reactive = shared.reactive();
    }

    private static Config config(String address, int connections) {
        Config config = new Config();
        config.useSingleServer().setAddress(address)
                .setConnectionPoolSize(connections)
                .setConnectionMinimumIdleSize(Math.min(connections, 8))
                .setSubscriptionConnectionMinimumIdleSize(1);
        return config;
    }

    @Override
    public String name() {
        return "Redisson 3.52.0";
    }

    @Override
    public Uni<Void> acquireAndRelease(String key) {
        long owner = owners.incrementAndGet();
        RLockReactive lock = reactive.getLock(key);
        return Uni.createFrom().completionStage(() -> lock.tryLock(0, LEASE_MILLIS, TimeUnit.MILLISECONDS, owner)
                .toFuture())
                .flatMap(acquired -> Uni.createFrom().completionStage(() -> lock.unlock(owner).toFuture()))
                .replaceWithVoid();
    }

    @Override
    public Waiters waiters(String key) {
        RLockAsync lock = shared.getLock(key);
        long holder = owners.incrementAndGet();
        return new Waiters() {
            @Override
            public void hold() {
                lock.tryLockAsync(0, LEASE_MILLIS, TimeUnit.MILLISECONDS, holder).toCompletableFuture().join();
            }

            @Override
            public CompletableFuture<Void> queue(int count) {
                List<CompletableFuture<?>> all = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    long owner = owners.incrementAndGet();
                    all.add(lock.tryLockAsync(WAIT_MILLIS, LEASE_MILLIS, TimeUnit.MILLISECONDS, owner)
                            .thenCompose(acquired -> lock.unlockAsync(owner)).toCompletableFuture());
                }
                return CompletableFuture.allOf(all.toArray(new CompletableFuture[0]));
            }

            @Override
            public void release() {
                lock.unlockAsync(holder).toCompletableFuture().join();
            }
        };
    }

    @Override
    public synchronized Contender contender(String key, int index) {
        RedissonClient instance = Redisson.create(config(address, 4));
        instances.add(instance);
        RLock lock = instance.getLock(key);
        return new Contender() {
            @Override
            public void acquire() throws InterruptedException {
                if (!lock.tryLock(WAIT_MILLIS, LEASE_MILLIS, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("gave up after " + WAIT_MILLIS + " ms");
                }
            }

            @Override
            public void release() {
                lock.unlock();
            }

            @Override
            public void close() {
                synchronized (RedissonLibrary.this) {
                    instances.remove(instance);
                }
                instance.shutdown();
            }
        };
    }

    @Override
    public synchronized void close() {
        instances.forEach(RedissonClient::shutdown);
        instances.clear();
        shared.shutdown();
    }
}
