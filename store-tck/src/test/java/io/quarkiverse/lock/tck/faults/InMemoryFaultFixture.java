package io.quarkiverse.lock.tck.faults;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.MonotonicClock;
import io.quarkiverse.lock.spi.LockRegistrySettings;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.vertx.core.Vertx;

/**
 * The in-memory store: one registry (its locks are shared inside one JVM only), no proxy and no faults, so the run
 * checks the registry's own concurrency (cancellation, interrupts, reentrancy, take-overs, one handle used at once).
 * The store's leases and the log's stamps are on one monotonic clock, as in an application, so a step of the wall clock
 * during the run can neither end a lease early nor make two sections seem to overlap.
 */
final class InMemoryFaultFixture implements FaultFixture {

    private final MonotonicClock clock = MonotonicClock.system();
    private final InMemoryLockStore store = new InMemoryLockStore(clock);
    private final ClockSectionLog log = new ClockSectionLog(clock, store::liveToken);
    private Vertx vertx;
    private StandaloneLockRegistry registry;

    @Override
    public String name() {
        return "in-memory";
    }

    @Override
    public List<StandaloneLockRegistry> start(int instances, LockRegistrySettings settings) {
        vertx = Vertx.vertx();
        registry = StandaloneLockRegistry.over(store, vertx).settings(settings).start();
        return List.of(registry);
    }

    @Override
    public SectionLog log() {
        return log;
    }

    /**
     * Asks for each key with a fresh handle: a key that cannot be acquired is still held.
     */
    @Override
    public List<String> leftInStore(List<String> keys) {
        store.evictExpired();
        List<String> left = new ArrayList<>();
        for (String key : keys) {
            ReactiveDistributedLock lock = registry.obtain(key);
            if (lock.acquireOnce().await().atMost(TIMEOUT)) {
                lock.release().await().atMost(TIMEOUT);
            } else {
                left.add(key + " (held)");
            }
        }
        if (left.isEmpty() && store.size() > 0) {
            left.add(store.size() + " other locks");
        }
        return left;
    }

    @Override
    public void close() {
        try {
            if (registry != null) {
                registry.close();
            }
        } finally {
            if (vertx != null) {
                vertx.close().toCompletionStage().toCompletableFuture().join();
            }
        }
    }
}
