package io.quarkiverse.lock.runtime.store.inmemory;

import java.time.InstantSource;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * A store in this JVM's memory: the same semantics as the distributed stores, for one instance and for tests.
 * <p>
 * Each operation is one atomic {@link ConcurrentHashMap#compute} on the key. Every waiter is in this JVM, so the
 * local line of waiters ({@code KeyState}) is the whole line and the store keeps none. Fencing tokens come from one counter for
 * the whole store, so they increase strictly per key without keeping anything per key after a release. Expired locks
 * are removed when touched and by {@link #evictExpired()}.
 */
public final class InMemoryLockStore implements LockStore {

    private final ConcurrentHashMap<String, StoredLock> locks = new ConcurrentHashMap<>();
    private final AtomicLong lastToken = new AtomicLong();
    private final InstantSource clock;

    /**
     * @param clock the source of time for leases; {@link InstantSource#system()} outside tests
     */
    public InMemoryLockStore(InstantSource clock) {
        this.clock = clock;
    }

    @Override
    public String name() {
        return "in-memory";
    }

    @Override
    public boolean answersAtOnce() {
        return true;
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        long now = clock.millis();
        StoredLock[] granted = new StoredLock[1];
        StoredLock current = locks.compute(key, (k, lock) -> {
            if (lock != null && lock.isLive(now)) {
                return lock;
            }
            granted[0] = new StoredLock(owner, lastToken.incrementAndGet(), expiry(now, leaseMillis));
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
        StoredLock granted = new StoredLock(owner, lastToken.incrementAndGet(), expiry(now, leaseMillis));
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
        long now = clock.millis();
        boolean[] released = new boolean[1];
        locks.computeIfPresent(key, (k, lock) -> {
            if (!lock.isLive(now)) {
                return null;
            }
            if (lock.owner.equals(owner)) {
                released[0] = true;
                return null;
            }
            return lock;
        });
        return Uni.createFrom().item(released[0]);
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
        boolean[] renewed = new boolean[1];
        locks.computeIfPresent(key, (k, lock) -> {
            if (!lock.isLive(now)) {
                return null;
            }
            if (lock.owner.equals(owner)) {
                renewed[0] = true;
                return new StoredLock(owner, lock.token, expiry(now, leaseMillis));
            }
            return lock;
        });
        return Uni.createFrom().item(renewed[0]);
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        StoredLock lock = locks.get(key);
        return Uni.createFrom().item(lock != null && lock.isLive(clock.millis()) && lock.owner.equals(owner));
    }

    @Override
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
     * @return how many locks the store keeps in memory, live or expired but not yet evicted
     */
    public int size() {
        return locks.size();
    }

    private record StoredLock(String owner, long token, long expiresAtMillis) {

        boolean isLive(long now) {
            return expiresAtMillis > now;
        }
    }
}
