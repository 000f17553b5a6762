package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.runtime.waiting.WaitStrategy;
import io.quarkiverse.lock.spi.LockStore;
import io.vertx.core.Vertx;

/**
 * What the handles of one registry share, handed to each handle and through it to the operations it starts: the store
 * as lock operations reach it (bounded in time), the local lines of waiters, the wait strategy, the Vert.x instance
 * whose timers renew leases and retry take-backs, the observer and the mapping of store failures, the configured
 * defaults, the lease renewals running, and whether the registry was closed.
 */
final class LockServices {

    private final LockStore boundedStore;
    private final LocalLockStates states;
    private final WaitStrategy waitStrategy;
    private final Vertx vertx;
    private final LockObserver observer;
    private final StoreFailures failures;
    private final Duration defaultLease;
    private final Duration defaultWait;
    private final long defaultLeaseMillis;
    private final long defaultWaitNanos;
    private final Set<LeaseRenewal> renewals = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * @param boundedStore the store, each operation bounded in time (the store itself if it answers at once)
     * @param states the local lines of waiters
     * @param waitStrategy how waiting acquisitions pause between attempts
     * @param vertx the Vert.x instance whose timers renew leases and retry take-backs
     * @param observer told what the locks do
     * @param defaultLease the lease of an acquisition that names none
     * @param defaultWait the wait of an acquisition that names none
     * @throws IllegalArgumentException if a default is not a valid lease or wait
     */
    LockServices(LockStore boundedStore, LocalLockStates states, WaitStrategy waitStrategy, Vertx vertx,
            LockObserver observer, Duration defaultLease, Duration defaultWait) {
        this.boundedStore = boundedStore;
        this.states = states;
        this.waitStrategy = waitStrategy;
        this.vertx = vertx;
        this.observer = observer;
        this.failures = new StoreFailures(boundedStore, observer);
        this.defaultLease = defaultLease;
        this.defaultWait = defaultWait;
        this.defaultLeaseMillis = LockArguments.requireLease(defaultLease);
        this.defaultWaitNanos = LockArguments.requireWait(defaultWait);
    }

    /**
     * @return the store as every lock operation reaches it: bounded in time by {@code quarkus.lock.operation-timeout}
     */
    LockStore boundedStore() {
        return boundedStore;
    }

    /**
     * @return the local lines of the acquisitions of this JVM waiting for a key
     */
    LocalLockStates states() {
        return states;
    }

    WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    /**
     * @return the Vert.x instance whose timers renew leases and retry take-backs
     */
    Vertx vertx() {
        return vertx;
    }

    /**
     * @return the observers told what the locks do ({@link LockObserver#NONE} when there are none)
     */
    LockObserver observer() {
        return observer;
    }

    /**
     * @return what turns a store's failure into the {@code LockException} callers see
     */
    StoreFailures failures() {
        return failures;
    }

    Duration defaultLease() {
        return defaultLease;
    }

    Duration defaultWait() {
        return defaultWait;
    }

    long defaultLeaseMillis() {
        return defaultLeaseMillis;
    }

    long defaultWaitNanos() {
        return defaultWaitNanos;
    }

    /**
     * Counts a lease renewal as running, so {@link #close()} stops it.
     */
    void renewing(LeaseRenewal renewal) {
        renewals.add(renewal);
    }

    /**
     * Forgets a lease renewal that stopped.
     */
    void stoppedRenewing(LeaseRenewal renewal) {
        renewals.remove(renewal);
    }

    /**
     * Marks the registry closed and stops every lease renewal: acquisitions then fail, and nothing is retried.
     */
    void close() {
        closed = true;
        for (LeaseRenewal renewal : renewals) {
            renewal.stop();
        }
    }

    /**
     * @return {@code true} once {@link #close()} was called
     */
    boolean isClosed() {
        return closed;
    }
}
