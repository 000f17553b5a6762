package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.OptionalLong;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockedSection;
import io.quarkiverse.lock.ReactiveDistributedLock;

/**
 * The blocking view of a {@link LockHandle}: each method awaits the reactive one ({@link BlockingWait}), refusing with
 * an {@link IllegalStateException} on a thread that must not block (a Vert.x event loop). An interrupt abandons an
 * acquisition (which takes back whatever the store granted it) but not a release. A guarded section gives back only
 * the hold its own acquisition got, like the reactive one.
 */
final class BlockingLockHandle implements DistributedLock {

    private final LockHandle handle;

    BlockingLockHandle(LockHandle handle) {
        this.handle = handle;
    }

    @Override
    public String getLockKey() {
        return handle.getLockKey();
    }

    @Override
    public boolean acquireOnce() {
        return BlockingWait.interruptibly(handle.acquireOnce());
    }

    @Override
    public boolean acquireForever() {
        return BlockingWait.interruptibly(handle.acquireForever());
    }

    @Override
    public boolean acquire() {
        return BlockingWait.interruptibly(handle.acquire());
    }

    @Override
    public boolean acquire(Duration wait) {
        return BlockingWait.interruptibly(handle.acquire(wait));
    }

    @Override
    public boolean acquire(Duration wait, Duration lease) {
        return BlockingWait.interruptibly(handle.acquire(wait, lease));
    }

    @Override
    public boolean release() {
        return BlockingWait.uninterruptibly(handle.release());
    }

    @Override
    public boolean isAcquired() {
        return BlockingWait.interruptibly(handle.isAcquired());
    }

    @Override
    public OptionalLong fencingToken() {
        return handle.fencingToken();
    }

    @Override
    public <T, E extends Exception> T acquireAndExecute(LockedSection<T, E> action) throws E {
        return acquireAndExecute(handle.services().defaultWait(), handle.services().defaultLease(), action);
    }

    @Override
    public <T, E extends Exception> T acquireAndExecute(Duration wait, LockedSection<T, E> action) throws E {
        return acquireAndExecute(wait, handle.services().defaultLease(), action);
    }

    @Override
    public <T, E extends Exception> T acquireAndExecute(Duration wait, Duration lease, LockedSection<T, E> action)
            throws E {
        long waitNanos = LockArguments.requireWait(wait);
        long leaseMillis = LockArguments.requireLeaseCoversHold(LockArguments.requireLease(lease),
                handle.holdAtLeastMillis());
        LockArguments.requireAction(action);
        ClaimedAcquisition claim = new ClaimedAcquisition(handle, handle.acquisition(waitNanos, leaseMillis));
        if (BlockingWait.interruptibly(claim) == null) {
            throw new CannotAcquireLockException(handle.key, wait);
        }
        T result;
        try {
            result = action.run();
        } catch (Exception | Error failure) {
            try {
                BlockingWait.uninterruptibly(claim.giveBack());
            } catch (RuntimeException releaseFailure) {
                failure.addSuppressed(releaseFailure);
            }
            throw failure;
        }
        BlockingWait.uninterruptibly(claim.giveBack());
        return result;
    }

    @Override
    public DistributedLock withLeaseRenewal(boolean renew) {
        handle.withLeaseRenewal(renew);
        return this;
    }

    @Override
    public DistributedLock withHoldAtLeast(Duration holdAtLeast) {
        handle.withHoldAtLeast(holdAtLeast);
        return this;
    }

    @Override
    public ReactiveDistributedLock toReactive() {
        return handle;
    }
}
