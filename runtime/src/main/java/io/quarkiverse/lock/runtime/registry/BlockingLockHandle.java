package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.OptionalLong;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockedSection;
import io.quarkiverse.lock.ReactiveDistributedLock;

/**
 * The blocking view of a {@link LockHandle}: each method awaits the reactive one. Mutiny refuses to await on a thread
 * that must not block (a Vert.x event loop) with an {@link IllegalStateException}.
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
        return handle.acquireOnce().await().indefinitely();
    }

    @Override
    public boolean acquireForever() {
        return handle.acquireForever().await().indefinitely();
    }

    @Override
    public boolean acquire() {
        return handle.acquire().await().indefinitely();
    }

    @Override
    public boolean acquire(Duration wait) {
        return handle.acquire(wait).await().indefinitely();
    }

    @Override
    public boolean acquire(Duration wait, Duration lease) {
        return handle.acquire(wait, lease).await().indefinitely();
    }

    @Override
    public boolean release() {
        return handle.release().await().indefinitely();
    }

    @Override
    public boolean isAcquired() {
        return handle.isAcquired().await().indefinitely();
    }

    @Override
    public OptionalLong fencingToken() {
        return handle.fencingToken();
    }

    @Override
    public <T, E extends Exception> T acquireAndExecute(LockedSection<T, E> action) throws E {
        return acquireAndExecute(handle.registry.defaultWait, handle.registry.defaultLease, action);
    }

    @Override
    public <T, E extends Exception> T acquireAndExecute(Duration wait, LockedSection<T, E> action) throws E {
        return acquireAndExecute(wait, handle.registry.defaultLease, action);
    }

    @Override
    public <T, E extends Exception> T acquireAndExecute(Duration wait, Duration lease, LockedSection<T, E> action)
            throws E {
        LockArguments.requireWait(wait);
        LockArguments.requireLease(lease);
        LockArguments.requireAction(action);
        if (!acquire(wait, lease)) {
            throw new CannotAcquireLockException(handle.key, wait);
        }
        T result;
        try {
            result = action.run();
        } catch (Exception | Error failure) {
            try {
                release();
            } catch (RuntimeException releaseFailure) {
                failure.addSuppressed(releaseFailure);
            }
            throw failure;
        }
        release();
        return result;
    }

    @Override
    public DistributedLock withLeaseRenewal(boolean renew) {
        handle.withLeaseRenewal(renew);
        return this;
    }

    @Override
    public ReactiveDistributedLock toReactive() {
        return handle;
    }
}
