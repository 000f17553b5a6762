package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * A handle on one lock: a key and an owner id of its own, and the fencing token of its current hold (0 when it holds
 * nothing). The token is taken and cleared by compare-and-set, so one hold is released at most once however release,
 * failure and cancellation race.
 */
final class LockHandle implements ReactiveDistributedLock {

    private static final Logger LOG = Logger.getLogger(LockHandle.class);
    private static final Uni<Boolean> FALSE = Uni.createFrom().item(Boolean.FALSE);
    private static final Uni<Boolean> TRUE = Uni.createFrom().item(Boolean.TRUE);

    final DefaultLockRegistry registry;
    final String key;
    final String owner;
    private final AtomicLong heldToken = new AtomicLong();

    LockHandle(DefaultLockRegistry registry, String key, String owner) {
        this.registry = registry;
        this.key = key;
        this.owner = owner;
    }

    @Override
    public String getLockKey() {
        return key;
    }

    @Override
    public Uni<Boolean> acquireOnce() {
        return acquired(0, LockArguments.requireLease(registry.defaultLease));
    }

    @Override
    public Uni<Boolean> acquire() {
        return acquire(registry.defaultWait, registry.defaultLease);
    }

    @Override
    public Uni<Boolean> acquire(Duration wait) {
        return acquire(wait, registry.defaultLease);
    }

    @Override
    public Uni<Boolean> acquire(Duration wait, Duration lease) {
        return acquired(LockArguments.requireWait(wait), LockArguments.requireLease(lease));
    }

    private Uni<Boolean> acquired(long waitNanos, long leaseMillis) {
        return Infrastructure.onUniCreation(new AcquireOperation(this, waitNanos, leaseMillis, null))
                .map(token -> token != 0L);
    }

    @Override
    public Uni<Boolean> release() {
        return Uni.createFrom().deferred(() -> {
            long token = heldToken.get();
            return token == 0 ? FALSE : releaseHold(token);
        });
    }

    @Override
    public Uni<Boolean> isAcquired() {
        return Uni.createFrom().deferred(() -> {
            if (heldToken.get() == 0) {
                return FALSE;
            }
            return registry.store.isHeld(key, owner)
                    .onFailure().transform(failure -> storeFailure("check", failure));
        });
    }

    @Override
    public OptionalLong fencingToken() {
        long token = heldToken.get();
        return token == 0 ? OptionalLong.empty() : OptionalLong.of(token);
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Uni<T> action) {
        return acquireAndExecute(registry.defaultWait, action);
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Duration wait, Uni<T> action) {
        return acquireAndExecute(wait, registry.defaultLease, action);
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Duration wait, Duration lease, Uni<T> action) {
        long waitNanos = LockArguments.requireWait(wait);
        long leaseMillis = LockArguments.requireLease(lease);
        LockArguments.requireAction(action);
        return Uni.createFrom().deferred(() -> {
            AtomicBoolean abandoned = new AtomicBoolean();
            return Infrastructure.onUniCreation(new AcquireOperation(this, waitNanos, leaseMillis, abandoned))
                    .flatMap(token -> token == 0L
                            ? Uni.createFrom().<T> failure(new CannotAcquireLockException(key, wait))
                            : action.onFailure().call(failure -> releaseAfterFailure(token, failure))
                                    .onItem().call(() -> releaseHold(token)))
                    .onCancellation().invoke(() -> abandon(abandoned));
        });
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Multi<T> action) {
        return acquireAndExecuteMany(registry.defaultWait, action);
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Duration wait, Multi<T> action) {
        return acquireAndExecuteMany(wait, registry.defaultLease, action);
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Duration wait, Duration lease, Multi<T> action) {
        long waitNanos = LockArguments.requireWait(wait);
        long leaseMillis = LockArguments.requireLease(lease);
        LockArguments.requireAction(action);
        return Multi.createFrom().deferred(() -> {
            AtomicBoolean abandoned = new AtomicBoolean();
            return Infrastructure.onUniCreation(new AcquireOperation(this, waitNanos, leaseMillis, abandoned))
                    .onItem().transformToMulti(token -> token == 0L
                            ? Multi.createFrom().<T> failure(new CannotAcquireLockException(key, wait))
                            : action.onFailure().call(failure -> releaseAfterFailure(token, failure))
                                    .onCompletion().call(() -> releaseHold(token)))
                    .onCancellation().invoke(() -> abandon(abandoned));
        });
    }

    @Override
    public DistributedLock toBlocking() {
        return new BlockingLockHandle(this);
    }

    @Override
    public String toString() {
        return "Lock[key=" + key + ", store=" + registry.store.name() + ", held=" + (heldToken.get() != 0) + "]";
    }

    boolean isHeldLocally() {
        return heldToken.get() != 0;
    }

    /**
     * Records a grant from the store. Called before the grant is delivered, so that a cancellation racing the
     * delivery finds the token to release.
     */
    void onGranted(long token, long leaseMillis) {
        heldToken.set(token);
        registry.states.onAcquired(key, leaseMillis);
    }

    /**
     * Releases the hold with this token, if this handle still has it.
     *
     * @return {@code true} when released; {@code false} when this handle no longer had that hold; fails with
     *         {@link LockExpiredException} when the store no longer had it for this owner
     */
    private Uni<Boolean> releaseHold(long token) {
        if (!heldToken.compareAndSet(token, 0)) {
            return FALSE;
        }
        return registry.store.release(key, owner)
                .onFailure().transform(failure -> storeFailure("release", failure))
                .onTermination().invoke(() -> registry.states.onReleased(key))
                .flatMap(released -> released ? TRUE : Uni.createFrom().failure(new LockExpiredException(key)));
    }

    /**
     * Releases after the guarded action failed: a release failure is added to the action's failure as suppressed,
     * so the caller sees the action's own failure.
     */
    private Uni<Boolean> releaseAfterFailure(long token, Throwable actionFailure) {
        return releaseHold(token)
                .onFailure().invoke(actionFailure::addSuppressed)
                .onFailure().recoverWithItem(Boolean.FALSE);
    }

    /**
     * Releases a hold nobody is left to be told about (the operation that took it was cancelled); a failure is
     * logged.
     */
    void releaseQuietly(long token, String reason) {
        releaseHold(token).subscribe().with(
                released -> LOG.debugf("Released lock '%s' because %s", key, reason),
                failure -> LOG.warnf(failure, "Could not release lock '%s' after %s; it frees when its lease runs out",
                        key, reason));
    }

    private void abandon(AtomicBoolean abandoned) {
        abandoned.set(true);
        long token = heldToken.get();
        if (token != 0) {
            releaseQuietly(token, "its operation was cancelled");
        }
    }

    LockException storeFailure(String operation, Throwable failure) {
        if (failure instanceof LockException lockException) {
            return lockException;
        }
        return new LockException(key, "Could not " + operation + " lock '" + key + "' in the "
                + registry.store.name() + " store: " + failure.getMessage(), failure);
    }
}
