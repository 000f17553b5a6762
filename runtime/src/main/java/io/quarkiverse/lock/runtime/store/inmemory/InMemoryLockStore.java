package io.quarkiverse.lock.runtime.store.inmemory;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.HeldLock;
import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * A store in this JVM's memory: the same semantics as the distributed stores, for one instance and for tests.
 * <p>
 * Each operation is one atomic {@link ConcurrentHashMap#compute} on the key. Every waiter is in this JVM, so the local
 * line of waiters is the whole line and the store keeps none. Fencing tokens come from one counter for the whole store,
 * so they increase strictly per key without keeping anything per key after a release. Expired locks are removed when
 * touched, by {@link #evictExpired()}, and, for a store given a sweep interval, periodically while started, so a key
 * used once does not keep its expired lock in memory for good.
 */
public final class InMemoryLockStore implements LockStore {

    /** The store's name, the value of {@code quarkus.lock.provider} that chooses it. */
    public static final String NAME = "in-memory";

    private static final Logger LOG = Logger.getLogger(InMemoryLockStore.class);
    private static final long NOT_SWEEPING = -1;

    private final ConcurrentHashMap<String, StoredLock> locks = new ConcurrentHashMap<>();
    private final AtomicLong lastToken = new AtomicLong();
    private final InstantSource clock;
    private final Vertx vertx;
    private final long sweepMillis;
    private long sweepTimer = NOT_SWEEPING;

    /**
     * A store that removes expired locks only when they are touched or {@link #evictExpired()} is called.
     *
     * @param clock the source of time for leases; {@link MonotonicClock#system()} outside tests
     */
    public InMemoryLockStore(InstantSource clock) {
        this(clock, null, Duration.ZERO);
    }

    /**
     * A store that also removes expired locks every {@code sweepInterval} while started.
     *
     * @param clock the source of time for leases; {@link MonotonicClock#system()} outside tests
     * @param vertx the Vert.x instance whose timer drives the sweep, or {@code null} for no sweep
     * @param sweepInterval how often to remove expired locks ({@code quarkus.lock.expire-evict-idle})
     */
    public InMemoryLockStore(InstantSource clock, Vertx vertx, Duration sweepInterval) {
        this.clock = clock;
        this.vertx = vertx;
        this.sweepMillis = Math.max(1, sweepInterval.toMillis());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean answersAtOnce() {
        return true;
    }

    /**
     * Starts removing expired locks periodically, if this store was given a Vert.x instance. Does nothing if already
     * started.
     */
    @Override
    public synchronized void start() {
        if (vertx != null && sweepTimer == NOT_SWEEPING) {
            sweepTimer = vertx.setPeriodic(sweepMillis, id -> sweep());
            LOG.debugf("Expired in-memory locks are removed every %d ms", sweepMillis);
        }
    }

    /**
     * Stops removing expired locks periodically. Does nothing if not started.
     */
    @Override
    public synchronized void close() {
        if (sweepTimer != NOT_SWEEPING) {
            vertx.cancelTimer(sweepTimer);
            sweepTimer = NOT_SWEEPING;
        }
    }

    /**
     * @return {@code true} between {@link #start()} and {@link #close()} for a store that sweeps
     */
    public synchronized boolean isSweeping() {
        return sweepTimer != NOT_SWEEPING;
    }

    private void sweep() {
        try {
            evictExpired();
        } catch (RuntimeException e) {
            LOG.warn("Removing expired in-memory locks failed; it runs again at the next interval", e);
        }
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        long now = clock.millis();
        StoredLock[] granted = new StoredLock[1];
        StoredLock current = locks.compute(key, (k, lock) -> {
            if (lock != null && lock.isLive(now)) {
                return lock;
            }
            granted[0] = new StoredLock(owner, lastToken.incrementAndGet(), now, expiry(now, leaseMillis));
            return granted[0];
        });
        AcquireResult result = granted[0] != null
                ? AcquireResult.acquired(granted[0].token)
                : AcquireResult.heldByAnother(current.expiresAtMillis - now);
        return Uni.createFrom().item(result);
    }

    @Override
    public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
        long now = clock.millis();
        StoredLock granted = new StoredLock(owner, lastToken.incrementAndGet(), now, expiry(now, leaseMillis));
        locks.put(key, granted);
        return Uni.createFrom().item(AcquireResult.acquired(granted.token));
    }

    @Override
    public Uni<Boolean> forceRelease(String key) {
        long now = clock.millis();
        StoredLock removed = locks.remove(key);
        return Uni.createFrom().item(removed != null && removed.isLive(now));
    }

    @Override
    public Uni<Boolean> release(String key, String owner) {
        return Uni.createFrom().item(ifHeldBy(key, owner, clock.millis(), lock -> null));
    }

    /**
     * The in-memory store keeps no line (local waiters queue in the registry), so taking back is releasing.
     */
    @Override
    public Uni<Boolean> takeBack(String key, String owner) {
        return release(key, owner);
    }

    @Override
    public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
        long now = clock.millis();
        return Uni.createFrom().item(ifHeldBy(key, owner, now,
                lock -> new StoredLock(owner, lock.token, lock.acquiredAtMillis, expiry(now, leaseMillis))));
    }

    /**
     * Replaces the lock of {@code key} by what {@code held} makes of it ({@code null}: removes it) if {@code owner}
     * holds it at {@code now}; removes it if it expired, and leaves another owner's lock as it is.
     *
     * @return {@code true} if {@code owner} held it
     */
    private boolean ifHeldBy(String key, String owner, long now, UnaryOperator<StoredLock> held) {
        boolean[] heldBy = new boolean[1];
        locks.computeIfPresent(key, (k, lock) -> {
            if (!lock.isLive(now)) {
                return null;
            }
            if (lock.owner.equals(owner)) {
                heldBy[0] = true;
                return held.apply(lock);
            }
            return lock;
        });
        return heldBy[0];
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        StoredLock lock = locks.get(key);
        return Uni.createFrom().item(lock != null && lock.isLive(clock.millis()) && lock.owner.equals(owner));
    }

    /**
     * Lists the live locks in key order, after the cursor (the last key of the page before). The store has no key
     * prefix (its map is its own) and keeps no line. Its map is a hash map, kept so for atomic per-key operations:
     * a page walks it in memory, keeping only the {@code limit} smallest keys after the cursor, and asks no one else.
     */
    @Override
    public Uni<LockPage> listHeld(String cursor, int limit) {
        long now = clock.millis();
        PriorityQueue<Map.Entry<String, StoredLock>> largestLast = new PriorityQueue<>(limit + 1,
                Map.Entry.<String, StoredLock> comparingByKey().reversed());
        boolean more = false;
        for (Map.Entry<String, StoredLock> entry : locks.entrySet()) {
            if ((cursor == null || entry.getKey().compareTo(cursor) > 0) && entry.getValue().isLive(now)) {
                largestLast.add(Map.entry(entry.getKey(), entry.getValue()));
                if (largestLast.size() > limit) {
                    largestLast.poll();
                    more = true;
                }
            }
        }
        List<HeldLock> page = new ArrayList<>(largestLast.size());
        while (!largestLast.isEmpty()) {
            Map.Entry<String, StoredLock> entry = largestLast.poll();
            page.add(0, entry.getValue().listed(entry.getKey(), now));
        }
        String next = more ? page.get(page.size() - 1).key() : null;
        return Uni.createFrom().item(new LockPage(page, next));
    }

    /**
     * Removes every lock whose lease ran out now.
     */
    public void evictExpired() {
        long now = clock.millis();
        locks.values().removeIf(lock -> !lock.isLive(now));
    }

    private static long expiry(long now, long leaseMillis) {
        return leaseMillis == NO_EXPIRY ? Long.MAX_VALUE : now + leaseMillis;
    }

    /**
     * Removes a lock whoever holds it, as an administrator would: its holder finds it lost at its next renewal or
     * release.
     *
     * @param key the lock key
     * @return {@code true} if a lock was removed
     */
    public boolean remove(String key) {
        return locks.remove(key) != null;
    }

    /**
     * Tells which acquisition holds a lock now, by its fencing token, as an administrator (or a test checking that a
     * critical section ran under its lock) would ask.
     *
     * @param key the lock key
     * @return the fencing token of the live lock of {@code key}, or {@code -1} if the lock is free or expired
     */
    public long liveToken(String key) {
        StoredLock lock = locks.get(key);
        return lock != null && lock.isLive(clock.millis()) ? lock.token : -1;
    }

    /**
     * @return how many locks the store keeps in memory, live or expired but not yet evicted
     */
    public int size() {
        return locks.size();
    }

    private record StoredLock(String owner, long token, long acquiredAtMillis, long expiresAtMillis) {

        boolean isLive(long now) {
            return expiresAtMillis > now;
        }

        HeldLock listed(String key, long now) {
            long left = expiresAtMillis == Long.MAX_VALUE ? HeldLock.UNTIL_RELEASED : expiresAtMillis - now;
            return new HeldLock(key, owner, token, left, HeldLock.NO_LINE, Instant.ofEpochMilli(acquiredAtMillis));
        }
    }
}
