package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.OptionalLong;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockedSection;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Uni;

/**
 * The blocking view of a reactive lock: each method awaits the reactive one ({@link BlockingWait}), refusing with an
 * {@link IllegalStateException} on a thread that must not block (a Vert.x event loop). An interrupt abandons an
 * acquisition (which takes back whatever the store granted it) but not a release or an extension, whose answer the
 * holder needs. A guarded section releases only
 * the hold its own acquisition got ({@link Claim}), like the reactive one.
 * <p>
 * The registry's handles and the test stub's ({@code io.quarkiverse.lock.testing}) share it, so the stub's blocking view
 * behaves as production's does.
 */
public final class BlockingLockView implements DistributedLock {

    /**
     * Where the guarded sections of a blocking view get their acquisitions.
     */
    public interface Sections {

        /**
         * @return the wait of a section that names none
         */
        Duration defaultWait();

        /**
         * @return the lease of a section that names none
         */
        Duration defaultLease();

        /**
         * @return the lock's name, which a {@link CannotAcquireLockException} carries; {@code null} if not known
         */
        default String lockName() {
            return null;
        }

        /**
         * Prepares the acquisition of one guarded section. Nothing reaches the store before the claim's
         * {@link Claim#acquisition()} is subscribed.
         *
         * @param wait how long to wait for the lock
         * @param lease the lease
         * @return the claim
         * @throws IllegalArgumentException if the wait or the lease is invalid
         */
        Claim claim(Duration wait, Duration lease);
    }

    /**
     * One guarded section's acquisition, and the release of exactly what it acquired.
     */
    public interface Claim {

        /**
         * @return emits {@code true} once acquired, {@code false} if the wait ran out; cancelling it abandons the
         *         acquisition; fails with {@code LockException} if the store failed
         */
        Uni<Boolean> acquisition();

        /**
         * Releases what the acquisition got, at most once.
         *
         * @return {@code true} when released; {@code false} when there was nothing to release or the lock's handle no
         *         longer had it; fails with {@link LockExpiredException} when the store no longer had the lock for this
         *         acquisition
         */
        Uni<Boolean> release();

        /**
         * Runs the section's action on this thread, with the section's span current if it has one.
         *
         * @param action the action
         * @return what the action returned
         * @throws E what the action threw
         */
        default <T, E extends Exception> T run(LockedSection<T, E> action) throws E {
            return action.run();
        }

        /**
         * The section ended, after its release when it acquired the lock: ends its span, if it has one.
         *
         * @param failure how it failed (not acquired, the action's failure, the release's), or {@code null}
         */
        default void ended(Throwable failure) {
        }
    }

    private final ReactiveDistributedLock lock;
    private final Sections sections;

    /**
     * @param lock the reactive lock this view awaits
     * @param sections where this view's guarded sections get their acquisitions (the lock's own)
     */
    public BlockingLockView(ReactiveDistributedLock lock, Sections sections) {
        this.lock = lock;
        this.sections = sections;
    }

    @Override
    public String getLockKey() {
        return lock.getLockKey();
    }

    @Override
    public boolean acquireOnce() {
        return BlockingWait.interruptibly(lock.getLockKey(), lock.acquireOnce(), null);
    }

    @Override
    public boolean acquireForever() {
        return BlockingWait.interruptibly(lock.getLockKey(), lock.acquireForever(), null);
    }

    @Override
    public boolean acquire() {
        return BlockingWait.interruptibly(lock.getLockKey(), lock.acquire(), null);
    }

    @Override
    public boolean acquire(Duration wait) {
        return BlockingWait.interruptibly(lock.getLockKey(), lock.acquire(wait), null);
    }

    @Override
    public boolean acquire(Duration wait, Duration lease) {
        return BlockingWait.interruptibly(lock.getLockKey(), lock.acquire(wait, lease), null);
    }

    @Override
    public boolean release() {
        return BlockingWait.uninterruptibly(lock.getLockKey(), lock.release());
    }

    @Override
    public boolean isAcquired() {
        return BlockingWait.interruptibly(lock.getLockKey(), lock.isAcquired(), null);
    }

    @Override
    public boolean extend(Duration lease) {
        return BlockingWait.uninterruptibly(lock.getLockKey(), lock.extend(lease));
    }

    @Override
    public OptionalLong fencingToken() {
        return lock.fencingToken();
    }

    @Override
    public <T, E extends Exception> T acquireAndExecute(LockedSection<T, E> action) throws E {
        return acquireAndExecute(sections.defaultWait(), sections.defaultLease(), action);
    }

    @Override
    public <T, E extends Exception> T acquireAndExecute(Duration wait, LockedSection<T, E> action) throws E {
        return acquireAndExecute(wait, sections.defaultLease(), action);
    }

    @Override
    public <T, E extends Exception> T acquireAndExecute(Duration wait, Duration lease, LockedSection<T, E> action)
            throws E {
        Claim claim = sections.claim(wait, lease);
        LockArguments.requireAction(action);
        boolean acquired;
        try {
            acquired = BlockingWait.interruptibly(lock.getLockKey(), claim.acquisition(),
                    held -> held ? claim.release() : null);
        } catch (RuntimeException | Error failure) {
            claim.ended(failure);
            throw failure;
        }
        if (!acquired) {
            CannotAcquireLockException notAcquired = new CannotAcquireLockException(lock.getLockKey(),
                    sections.lockName(), wait);
            claim.ended(notAcquired);
            throw notAcquired;
        }
        T result;
        try {
            result = claim.run(action);
        } catch (Exception | Error failure) {
            try {
                BlockingWait.uninterruptibly(lock.getLockKey(), claim.release());
            } catch (RuntimeException releaseFailure) {
                failure.addSuppressed(releaseFailure);
            }
            claim.ended(failure);
            throw failure;
        }
        try {
            BlockingWait.uninterruptibly(lock.getLockKey(), claim.release());
        } catch (RuntimeException releaseFailure) {
            claim.ended(releaseFailure);
            throw releaseFailure;
        }
        claim.ended(null);
        return result;
    }

    @Override
    public DistributedLock withLeaseRenewal(boolean renew) {
        lock.withLeaseRenewal(renew);
        return this;
    }

    @Override
    public DistributedLock withHoldAtLeast(Duration holdAtLeast) {
        lock.withHoldAtLeast(holdAtLeast);
        return this;
    }

    @Override
    public ReactiveDistributedLock toReactive() {
        return lock;
    }
}
