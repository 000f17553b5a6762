package io.quarkiverse.lock.contract;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.runtime.waiting.WaitStrategy;
import io.vertx.core.Vertx;

/**
 * The whole contract on the in-memory store. Its clock follows real time plus an offset the tests can move, so
 * expiry needs no sleep while renewal still runs in real time.
 */
class InMemoryLockContractTest extends LockContract {

    static final SkippableClock CLOCK = new SkippableClock();
    static final LockSettings SETTINGS = new LockSettings(Duration.ofSeconds(10), Duration.ofSeconds(10),
            Duration.ofSeconds(1), "lock:", false, Duration.ofSeconds(5));
    static Vertx vertx;
    static InMemoryLockStore store;
    static LocalLockStates states;
    static DefaultLockRegistry registry;

    @BeforeAll
    static void createRegistry() {
        vertx = Vertx.vertx();
        store = new InMemoryLockStore(CLOCK);
        states = new LocalLockStates();
        registry = new DefaultLockRegistry(store, SETTINGS, new BackoffWaitStrategy(vertx), states, vertx);
        registry.start();
    }

    @AfterAll
    static void closeVertx() {
        registry.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Override
    protected LockRegistry registry() {
        return registry;
    }

    @Override
    protected void letLeasesRunOut(Duration lease) {
        CLOCK.skip(lease.plusMillis(1));
    }

    @Override
    protected long storeSize() {
        return store.size();
    }

    @Override
    protected DefaultLockRegistry startInstance(WaitStrategy waitStrategy) {
        DefaultLockRegistry instance = new DefaultLockRegistry(store, SETTINGS, waitStrategy, states, vertx);
        instance.start();
        return instance;
    }

    @Override
    protected void deleteLock(String key) {
        store.remove(key);
    }

    @Override
    protected Vertx vertx() {
        return vertx;
    }

    /** Real time, plus whatever the tests skipped ahead. */
    static final class SkippableClock implements InstantSource {

        private final AtomicLong skippedMillis = new AtomicLong();

        void skip(Duration duration) {
            skippedMillis.addAndGet(duration.toMillis());
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }

        @Override
        public long millis() {
            return System.currentTimeMillis() + skippedMillis.get();
        }
    }
}
