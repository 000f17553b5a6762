package io.quarkiverse.lock.runtime.registry;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.runtime.observe.LockTracer;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.runtime.waiting.WaitStrategy;
import io.quarkiverse.lock.spi.LockStore;
import io.vertx.core.Vertx;

/**
 * The {@link LockRegistry} over one {@link LockStore}: hands out {@link LockHandle}s sharing the store, the wait
 * strategy and the local per-key state ({@link LockServices}).
 * <p>
 * The store has two faces: {@link #store()}, as the store extension made it, and {@link #boundedStore()}, the same
 * store with each operation bounded in time by {@code quarkus.lock.operation-timeout}, which every lock operation
 * goes through.
 */
public final class DefaultLockRegistry implements LockRegistry {

    private static final Logger LOG = Logger.getLogger(DefaultLockRegistry.class);

    private final LockStore store;
    private final LockServices services;
    private final HandleOptions[] defaultOptions;
    private volatile AutoCloseable releaseWatch;
    /** How long closing waits at most for what was sent to the store: the operation timeout and a second. */
    private final long closeBoundNanos;

    /**
     * @param store where the locks live
     * @param settings the default lease, wait and renewal
     * @param waitStrategy how waiting acquisitions pause between attempts
     * @param states the local per-key state shared with the idle evictor
     * @param vertx the Vert.x instance whose timers renew leases
     * @throws IllegalArgumentException if the settings hold an invalid default lease or wait
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
     * @throws IllegalArgumentException if the settings hold an invalid default lease or wait
     */
    public DefaultLockRegistry(LockStore store, LockSettings settings, WaitStrategy waitStrategy,
            LocalLockStates states, Vertx vertx, LockObserver observer) {
        this(store, settings, waitStrategy, states, vertx, observer, LockTracer.NONE);
    }

    /**
     * @param store where the locks live
     * @param settings the default lease, wait and renewal
     * @param waitStrategy how waiting acquisitions pause between attempts
     * @param states the local per-key state shared with the idle evictor
     * @param vertx the Vert.x instance whose timers renew leases
     * @param observer told what the locks do (metrics, Dev UI)
     * @param tracer makes the spans of acquisitions and guarded sections ({@link LockTracer#NONE} for none)
     * @throws IllegalArgumentException if the settings hold an invalid default lease or wait
     */
    public DefaultLockRegistry(LockStore store, LockSettings settings, WaitStrategy waitStrategy,
            LocalLockStates states, Vertx vertx, LockObserver observer, LockTracer tracer) {
        this.store = store;
        LockStore bounded = store.answersAtOnce() ? store
                : new TimeBoundedLockStore(store, settings.operationTimeout(), vertx, this::takeBackLateAnswer,
                        new StoreOutage(store.name(), observer, System::nanoTime));
        this.services = new LockServices(bounded, states, waitStrategy, vertx, observer, tracer, settings.defaultLease(),
                settings.defaultWait());
        this.closeBoundNanos = settings.operationTimeout().plusSeconds(1).toNanos();
        this.defaultOptions = new HandleOptions[LockType.values().length];
        for (LockType type : LockType.values()) {
            defaultOptions[type.ordinal()] = HandleOptions.defaults(type, settings.renewLease());
        }
    }

    /** Takes back an acquisition that the store completed after it timed out (see {@link TimeBoundedLockStore}). */
    private void takeBackLateAnswer(String key, String owner, long leaseMillis) {
        TakeBack.send(services, key, owner, leaseMillis).subscribe().with(ignored -> {
        });
    }

    /**
     * Starts the store, and listening to its release notifications, which wake the first local waiter of the released key,
     * or tell a local waiter that a release handed it the lock.
     */
    public void start() {
        services.boundedStore().start();
        releaseWatch = services.boundedStore().watchReleases(services.states());
    }

    /**
     * Stops listening to release notifications, stops every lease renewal (the locks this application still holds
     * then free when their leases run out, as they would if it crashed) and closes the store's connections, once the
     * store has ended the operations sent to it, every waiting acquisition has withdrawn from its line (each fails at
     * once, as the registry closes) and no take-back is left to try again (each is tried again at once, then every
     * 20 ms); at most the operation timeout and a second. An acquisition granted from now on is taken back, and its
     * caller told it failed. Called on an event loop, which must not block, it returns at once and the store closes
     * later; an interrupt of the calling thread does not cut the wait short.
     */
    public void close() {
        services.close();
        services.hurryUnsettled();
        LockStore bounded = services.boundedStore();
        // the store's operations first: whatever they leave unsettled is registered before they end
        WhenSettled.run(() -> (!(bounded instanceof TimeBoundedLockStore timed) || timed.quiet())
                && services.unsettled() == 0,
                System.nanoTime() + closeBoundNanos, services.vertx(), this::closeStore);
    }

    private void closeStore() {
        services.storeClosed();
        AutoCloseable watch = releaseWatch;
        releaseWatch = null;
        if (watch != null) {
            try {
                watch.close();
            } catch (Exception e) {
                LOG.debug("Could not stop listening to lock releases", e);
            }
        }
        services.boundedStore().close();
    }

    /**
     * {@inheritDoc}
     *
     * @throws io.quarkiverse.lock.InvalidLockKeyException if the key is {@code null}, blank or longer than
     *         {@link #MAX_KEY_LENGTH}
     * @throws IllegalArgumentException if the type is {@code null}
     */
    @Override
    public ReactiveDistributedLock obtain(String key, LockType type) {
        return new LockHandle(services, LockArguments.requireKey(key), OwnerIds.next(),
                defaultOptions[LockArguments.requireType(type).ordinal()]);
    }

    /**
     * @return the observers this registry tells what its locks do ({@link LockObserver#NONE} when there are none)
     */
    public LockObserver observer() {
        return services.observer();
    }

    /**
     * @return the store this registry's locks live in, as the store extension made it: its operations are not bounded
     *         in time (see {@link #boundedStore()})
     */
    public LockStore store() {
        return store;
    }

    /**
     * @return the store as every lock operation reaches it: each operation bounded in time by
     *         {@code quarkus.lock.operation-timeout} (the {@link #store()} itself for a store that answers at once)
     */
    public LockStore boundedStore() {
        return services.boundedStore();
    }
}
