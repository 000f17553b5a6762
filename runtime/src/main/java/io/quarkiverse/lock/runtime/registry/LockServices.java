package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.runtime.observe.LockTracer;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.runtime.waiting.WaitStrategy;
import io.quarkiverse.lock.spi.LockStore;
import io.vertx.core.Vertx;

/**
 * What the handles of one registry share, handed to each handle and through it to the operations it starts; it also
 * counts the lease renewals running, so that closing the registry stops them.
 */
final class LockServices {

    private final LockStore boundedStore;
    private final LocalLockStates states;
    private final WaitStrategy waitStrategy;
    private final Vertx vertx;
    private final LockObserver observer;
    private final LockTracer tracer;
    private final StoreFailures failures;
    private final Duration defaultLease;
    private final Duration defaultWait;
    private final long defaultLeaseMillis;
    private final long defaultWaitNanos;
    private final Set<LeaseLine> renewals = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private volatile boolean storeClosed;
    /** What the store's connections must outlive: waiting acquisitions, take-backs not yet answered or given up. */
    private final Set<Unsettled> unsettled = ConcurrentHashMap.newKeySet();

    /**
     * @param boundedStore the store, each operation bounded in time (the store itself if it answers at once)
     * @param vertx the Vert.x instance whose timers renew leases and retry take-backs
     * @throws IllegalArgumentException if a default is not a valid lease or wait
     */
    LockServices(LockStore boundedStore, LocalLockStates states, WaitStrategy waitStrategy, Vertx vertx,
            LockObserver observer, LockTracer tracer, Duration defaultLease, Duration defaultWait) {
        this.boundedStore = boundedStore;
        this.tracer = tracer;
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

    /** The store as every lock operation reaches it: bounded in time by {@code quarkus.lock.operation-timeout}. */
    LockStore boundedStore() {
        return boundedStore;
    }

    LocalLockStates states() {
        return states;
    }

    WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    Vertx vertx() {
        return vertx;
    }

    /** {@link LockObserver#NONE} when there are no observers. */
    LockObserver observer() {
        return observer;
    }

    /** {@link LockTracer#NONE} when spans are not made. */
    LockTracer tracer() {
        return tracer;
    }

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

    void renewing(LeaseLine renewal) {
        renewals.add(renewal);
    }

    void stoppedRenewing(LeaseLine renewal) {
        renewals.remove(renewal);
    }

    /**
     * Marks the registry closing and stops every lease renewal: acquisitions then fail; take-backs are still sent,
     * and tried again soon, until {@link #storeClosed()}.
     */
    void close() {
        closed = true;
        for (LeaseLine renewal : renewals) {
            renewal.stop();
        }
    }

    boolean isClosed() {
        return closed;
    }

    /** The store's connections close: nothing is tried again. */
    void storeClosed() {
        storeClosed = true;
    }

    boolean isStoreClosed() {
        return storeClosed;
    }

    /** Work that the store's connections must outlive when the registry closes. */
    interface Unsettled {

        /** The registry closes: ends as soon as it can (a waiter fails and withdraws, a take-back tries again now). */
        void hurry();
    }

    /** @param work unsettled from now until {@link #settled} */
    void unsettled(Unsettled work) {
        unsettled.add(work);
    }

    /** @param work settled: it needs the store no more */
    void settled(Unsettled work) {
        unsettled.remove(work);
    }

    /** @return how much is left to end before the store may close */
    int unsettled() {
        return unsettled.size();
    }

    /** Tells every unsettled work to end as soon as it can. */
    void hurryUnsettled() {
        for (Unsettled work : unsettled) {
            work.hurry();
        }
    }
}
