package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.runtime.store.TimeBoundedLockStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.runtime.waiting.WaitStrategy;
import io.quarkiverse.lock.spi.LockStore;
import io.vertx.core.Vertx;

/**
 * The {@link LockRegistry} over one {@link LockStore}: hands out {@link LockHandle}s sharing the store, the wait
 * strategy and the local per-key state.
 */
public final class DefaultLockRegistry implements LockRegistry {

    private static final Logger LOG = Logger.getLogger(DefaultLockRegistry.class);

    final LockStore store;
    private final LockStore unbounded;
    final WaitStrategy waitStrategy;
    final LocalLockStates states;
    final Duration defaultLease;
    final Duration defaultWait;
    final long defaultLeaseMillis;
    final long defaultWaitNanos;
    final Vertx vertx;
    final Set<LeaseRenewal> renewals = ConcurrentHashMap.newKeySet();
    final LockObserver observer;
    private final HandleOptions[] defaultOptions;
    private volatile AutoCloseable releaseWatch;
    private volatile boolean closed;

    /**
     * @param store where the locks live
     * @param settings the default lease, wait and renewal
     * @param waitStrategy how waiting acquisitions pause between attempts
     * @param states the local per-key state shared with the idle evictor
     * @param vertx the Vert.x instance whose timers renew leases
     */
    public DefaultLockRegistry(LockStore store, LockSettings settings, WaitStrategy waitStrategy,
            LocalLockStates states, Vertx vertx) {
        this(store, settings, waitStrategy, states, vertx, LockObserver.NONE);
    }

    /**
     * @param store where the locks live
     * @param settings the default lease, wait and renewal
     * @param waitStrategy how waiting acquisitions pause between attempts
     * @param states the local per-key state shared with the idle evictor
     * @param vertx the Vert.x instance whose timers renew leases
     * @param observer told what the locks do (metrics, Dev UI)
     */
    public DefaultLockRegistry(LockStore store, LockSettings settings, WaitStrategy waitStrategy,
            LocalLockStates states, Vertx vertx, LockObserver observer) {
        this.unbounded = store;
        this.store = store.answersAtOnce() ? store
                : new TimeBoundedLockStore(store, settings.operationTimeout(), vertx,
                        (key, owner, leaseMillis) -> TakeBack.send(this, key, owner, leaseMillis).subscribe()
                                .with(ignored -> {
                                }));
        this.waitStrategy = waitStrategy;
        this.states = states;
        this.vertx = vertx;
        this.defaultLease = settings.defaultLease();
        this.defaultWait = settings.defaultWait();
        this.defaultLeaseMillis = LockArguments.requireLease(defaultLease);
        this.defaultWaitNanos = LockArguments.requireWait(defaultWait);
        this.observer = observer;
        this.defaultOptions = new HandleOptions[LockType.values().length];
        for (LockType type : LockType.values()) {
            defaultOptions[type.ordinal()] = HandleOptions.defaults(type, settings.renewLease());
        }
    }

    /**
     * Starts the store, and listening to its release notifications, which wake the first local waiter of the released key,
     * or tell a local waiter that a release handed it the lock.
     */
    public void start() {
        store.start();
        releaseWatch = store.watchReleases(states);
    }

    /**
     * Stops listening to release notifications, stops every lease renewal (the locks this application still holds
     * then free when their leases run out, as they would if it crashed) and closes the store's connections.
     */
    public void close() {
        closed = true;
        for (LeaseRenewal renewal : renewals) {
            renewal.stop();
        }
        AutoCloseable watch = releaseWatch;
        releaseWatch = null;
        if (watch != null) {
            try {
                watch.close();
            } catch (Exception e) {
                LOG.debug("Could not stop listening to lock releases", e);
            }
        }
        store.close();
    }

    @Override
    public ReactiveDistributedLock obtain(String key, LockType type) {
        return new LockHandle(this, LockArguments.requireKey(key), OwnerIds.next(),
                defaultOptions[LockArguments.requireType(type).ordinal()]);
    }

    /**
     * @return {@code true} once {@link #close()} was called: acquisitions fail, and nothing is retried
     */
    boolean isClosed() {
        return closed;
    }

    /**
     * @return the observers this registry tells what its locks do ({@link LockObserver#NONE} when there are none)
     */
    public LockObserver observer() {
        return observer;
    }

    /**
     * @return the store this registry's locks live in
     */
    public LockStore store() {
        return unbounded;
    }

    /**
     * @return the store as every lock operation reaches it: each operation bounded in time by
     *         {@code quarkus.lock.operation-timeout} (the {@link #store()} itself for a store that answers at once)
     */
    public LockStore boundedStore() {
        return store;
    }
}
