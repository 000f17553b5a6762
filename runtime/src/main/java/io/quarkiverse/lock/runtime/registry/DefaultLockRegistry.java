package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.UUID;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.local.LocalLockStates;
import io.quarkiverse.lock.runtime.store.LockStore;
import io.quarkiverse.lock.runtime.wait.WaitStrategy;

/**
 * The {@link LockRegistry} over one {@link LockStore}: hands out {@link LockHandle}s sharing the store, the wait
 * strategy and the local per-key state.
 */
public final class DefaultLockRegistry implements LockRegistry {

    final LockStore store;
    final WaitStrategy waitStrategy;
    final LocalLockStates states;
    final Duration defaultLease;
    final Duration defaultWait;

    /**
     * @param store where the locks live
     * @param settings the default lease and wait
     * @param waitStrategy how waiting acquisitions pause between attempts
     * @param states the local per-key state shared with the idle evictor
     */
    public DefaultLockRegistry(LockStore store, LockSettings settings, WaitStrategy waitStrategy, LocalLockStates states) {
        this.store = store;
        this.waitStrategy = waitStrategy;
        this.states = states;
        this.defaultLease = settings.defaultLease();
        this.defaultWait = settings.defaultWait();
    }

    @Override
    public ReactiveDistributedLock obtain(String key) {
        return new LockHandle(this, LockArguments.requireKey(key), UUID.randomUUID().toString());
    }

    /**
     * @return the store this registry's locks live in
     */
    public LockStore store() {
        return store;
    }
}
