package io.quarkiverse.lock.runtime.registry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.LockStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * A handle on one lock: a key and an owner id of its own, and its current {@link Hold} ({@code null} when it holds
 * nothing). The hold is taken and cleared by compare-and-set, so one hold is released at most once however release,
 * failure and cancellation race.
 */
final class LockHandle implements ReactiveDistributedLock {

    private static final Logger LOG = Logger.getLogger(LockHandle.class);
    private static final Uni<Boolean> FALSE = Uni.createFrom().item(Boolean.FALSE);
    private static final Uni<Boolean> TRUE = Uni.createFrom().item(Boolean.TRUE);

    final DefaultLockRegistry registry;
    final String key;
    final String owner;
    private static final VarHandle HOLD;

    static {
        try {
            HOLD = MethodHandles.lookup().findVarHandle(LockHandle.class, "hold", Hold.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile Hold hold;
    private volatile HandleOptions options;

    LockHandle(DefaultLockRegistry registry, String key, String owner, HandleOptions options) {
        this.registry = registry;
        this.key = key;
        this.owner = owner;
        this.options = options;
    }

    String metricsName() {
        return options.metricsName();
    }

    @Override
    public String getLockKey() {
        return key;
    }

    @Override
    public Uni<Boolean> acquireOnce() {
        return acquired(0, registry.defaultLeaseMillis);
    }

    @Override
    public Uni<Boolean> acquireForever() {
        return acquired(0, LockStore.NO_EXPIRY);
    }

    @Override
    public Uni<Boolean> acquire() {
        return acquired(registry.defaultWaitNanos, registry.defaultLeaseMillis);
    }

    @Override
    public Uni<Boolean> acquire(Duration wait) {
        return acquired(LockArguments.requireWait(wait), registry.defaultLeaseMillis);
    }

    @Override
    public Uni<Boolean> acquire(Duration wait, Duration lease) {
        return acquired(LockArguments.requireWait(wait), LockArguments.requireLease(lease));
    }

    private Uni<Boolean> acquired(long waitNanos, long leaseMillis) {
        return acquisition(waitNanos, leaseMillis, null).map(token -> token != 0L);
    }

    /**
     * Acquires as this handle's type says.
     *
     * @return the token of the hold acquired or entered again, or 0 if not acquired
     */
    private Uni<Long> acquisition(long waitNanos, long leaseMillis, AtomicBoolean abandoned) {
        LockObserver observer = registry.observer;
        Uni<Long> acquisition = acquisitionByType(waitNanos, leaseMillis, abandoned);
        if (observer == LockObserver.NONE) {
            return acquisition;
        }
        return Uni.createFrom().deferred(() -> {
            long start = System.nanoTime();
            return acquisition.invoke(token -> {
                long waited = System.nanoTime() - start;
                if (token != 0L) {
                    observer.acquired(metricsName(), key, owner, token, waited);
                } else {
                    observer.notAcquired(metricsName(), key, waited);
                }
            });
        });
    }

    private Uni<Long> acquisitionByType(long waitNanos, long leaseMillis, AtomicBoolean abandoned) {
        switch (options.type()) {
            case REENTRANT:
                return Uni.createFrom().deferred(() -> {
                    Hold current = hold;
                    return current == null ? waitAndAcquire(waitNanos, leaseMillis, abandoned)
                            : reenter(current, waitNanos, leaseMillis, abandoned);
                });
            case OVERRIDING:
                return Uni.createFrom().deferred(() -> registry.store.takeOver(key, owner, leaseMillis)
                        .onFailure().transform(failure -> storeFailure("take over", failure))
                        .map(result -> {
                            onGranted(result.token(), leaseMillis);
                            return result.token();
                        }));
            default:
                return waitAndAcquire(waitNanos, leaseMillis, abandoned);
        }
    }

    private Uni<Long> waitAndAcquire(long waitNanos, long leaseMillis, AtomicBoolean abandoned) {
        return Infrastructure.onUniCreation(new AcquireOperation(this, waitNanos, leaseMillis, abandoned));
    }

    /**
     * Enters a held lock again, after the store confirmed it is still held (restarting its lease); a lock found lost
     * is dropped and acquired afresh.
     */
    private Uni<Long> reenter(Hold current, long waitNanos, long leaseMillis, AtomicBoolean abandoned) {
        return registry.store.renew(key, owner, current.leaseMillis)
                .onFailure().transform(failure -> storeFailure("acquire", failure))
                .flatMap(stillHeld -> {
                    if (stillHeld && current.enter()) {
                        return Uni.createFrom().item(current.token);
                    }
                    if (HOLD.compareAndSet(this, current, null)) {
                        current.ended();
                    }
                    return waitAndAcquire(waitNanos, leaseMillis, abandoned);
                });
    }

    @Override
    public Uni<Boolean> release() {
        if (options.type() == LockType.OVERRIDING) {
            return Uni.createFrom().deferred(this::releaseWhoeverHolds);
        }
        return Uni.createFrom().deferred(() -> {
            Hold current = hold;
            return current == null ? FALSE : releaseHold(current);
        });
    }

    /** An overriding handle's release: frees the lock whoever holds it. */
    private Uni<Boolean> releaseWhoeverHolds() {
        Hold current = (Hold) HOLD.getAndSet(this, null);
        if (current != null) {
            current.ended();
            registry.observer.released(metricsName(), key, owner, current.heldNanos());
        }
        return registry.store.forceRelease(key)
                .onFailure().transform(failure -> storeFailure("release", failure))
                .onTermination().invoke(() -> registry.states.onReleased(key));
    }

    @Override
    public Uni<Boolean> isAcquired() {
        return Uni.createFrom().deferred(() -> {
            Hold current = hold;
            if (current == null || current.isLost()) {
                return FALSE;
            }
            return registry.store.isHeld(key, owner)
                    .onFailure().transform(failure -> storeFailure("check", failure));
        });
    }

    @Override
    public OptionalLong fencingToken() {
        Hold current = hold;
        return current == null ? OptionalLong.empty() : OptionalLong.of(current.token);
    }

    @Override
    public ReactiveDistributedLock withMetricsName(String name) {
        this.options = options.withMetricsName(LockArguments.requireMetricsName(name));
        return this;
    }

    @Override
    public ReactiveDistributedLock withLeaseRenewal(boolean renew) {
        this.options = options.withRenewLease(renew);
        return this;
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
            return acquisition(waitNanos, leaseMillis, abandoned)
                    .flatMap(token -> {
                        Hold held = holdWithToken(token);
                        if (held == null) {
                            return Uni.createFrom().<T> failure(new CannotAcquireLockException(key, wait));
                        }
                        return endWhenLost(held, action)
                                .onFailure().call(failure -> releaseAfterFailure(held, failure))
                                .onItem().call(() -> releaseHold(held));
                    })
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
            return acquisition(waitNanos, leaseMillis, abandoned)
                    .onItem().transformToMulti(token -> {
                        Hold held = holdWithToken(token);
                        if (held == null) {
                            return Multi.createFrom().<T> failure(new CannotAcquireLockException(key, wait));
                        }
                        return endWhenLost(held, action)
                                .onFailure().call(failure -> releaseAfterFailure(held, failure))
                                .onCompletion().call(() -> releaseHold(held));
                    })
                    .onCancellation().invoke(() -> abandon(abandoned));
        });
    }

    @Override
    public DistributedLock toBlocking() {
        return new BlockingLockHandle(this);
    }

    @Override
    public String toString() {
        return "Lock[key=" + key + ", type=" + options.type() + ", store=" + registry.store.name() + ", held=" + (hold != null)
                + "]";
    }

    boolean isHeldLocally() {
        return hold != null;
    }

    private Hold holdWithToken(long token) {
        Hold current = hold;
        return token != 0L && current != null && current.token == token ? current : null;
    }

    /**
     * Records a grant from the store, and starts renewing its lease if this handle renews. Called before the grant is
     * delivered, so that a cancellation racing the delivery finds the hold to release.
     */
    void onGranted(long token, long leaseMillis) {
        HandleOptions current = options;
        LockHandle renewedBy = current.renewLease() && leaseMillis != LockStore.NO_EXPIRY ? this : null;
        Hold granted = current.type() == LockType.REENTRANT ? new ReentrantHold(token, leaseMillis, renewedBy)
                : new Hold(token, leaseMillis, renewedBy);
        Hold previous = (Hold) HOLD.getAndSet(this, granted);
        if (previous != null) {
            previous.ended();
        }
        if (granted.renewal != null) {
            granted.renewal.start();
        }
    }

    /**
     * Runs the action, but fails it with {@link LockExpiredException} (and cancels it) as soon as a renewal finds the
     * lock lost. Without renewal nothing can find it lost while the action runs, so the action runs as it is.
     */
    private <T> Uni<T> endWhenLost(Hold held, Uni<T> action) {
        if (held.renewal == null) {
            return action;
        }
        return Uni.createFrom().emitter(emitter -> {
            Cancellable running = action.subscribe().with(emitter::complete, emitter::fail);
            held.end().whenComplete((ignored, lost) -> {
                if (lost != null) {
                    running.cancel();
                    emitter.fail(lost);
                }
            });
            emitter.onTermination(running::cancel);
        });
    }

    private <T> Multi<T> endWhenLost(Hold held, Multi<T> action) {
        if (held.renewal == null) {
            return action;
        }
        Multi<T> lost = Multi.createFrom().completionStage(held.end()).onItem().transformToMultiAndConcatenate(
                ignored -> Multi.createFrom().empty());
        return Multi.createBy().merging().streams(action.onTermination().invoke(held::ended), lost);
    }

    /**
     * Releases one entry of this hold, and the lock with the last, if this handle still has it.
     *
     * @return {@code true} when released (or entries remain); {@code false} when this handle no longer had that hold;
     *         fails with {@link LockExpiredException} when the store no longer had it for this owner
     */
    private Uni<Boolean> releaseHold(Hold held) {
        if (held.leaveOneEntry()) {
            return TRUE;
        }
        if (!HOLD.compareAndSet(this, held, null)) {
            return FALSE;
        }
        held.stopRenewal();
        return registry.store.release(key, owner)
                .onFailure().transform(failure -> storeFailure("release", failure))
                .onTermination().invoke(() -> {
                    held.ended();
                    registry.states.onReleased(key);
                })
                .invoke(released -> {
                    if (released) {
                        registry.observer.released(metricsName(), key, owner, held.heldNanos());
                    } else if (!held.isLost()) {
                        registry.observer.leaseExpired(metricsName(), key, owner, held.heldNanos());
                    }
                })
                .flatMap(released -> released ? TRUE : Uni.createFrom().failure(new LockExpiredException(key)));
    }

    /**
     * Releases after the guarded action failed: a release failure is added to the action's failure as suppressed,
     * so the caller sees the action's own failure. When the action failed because the lock was lost, the release
     * is expected to find it gone, and adds nothing.
     */
    private Uni<Boolean> releaseAfterFailure(Hold held, Throwable actionFailure) {
        return releaseHold(held)
                .onFailure().invoke(releaseFailure -> {
                    if (!(actionFailure instanceof LockExpiredException)) {
                        actionFailure.addSuppressed(releaseFailure);
                    }
                })
                .onFailure().recoverWithItem(Boolean.FALSE);
    }

    /**
     * Releases the hold with this token, which nobody is left to be told about (the operation that took it was
     * cancelled); a failure is logged.
     */
    void releaseQuietly(long token, String reason) {
        Hold held = holdWithToken(token);
        if (held != null) {
            releaseQuietly(held, reason);
        }
    }

    private void releaseQuietly(Hold held, String reason) {
        releaseHold(held).subscribe().with(
                released -> LOG.debugf("Released lock '%s' because %s", key, reason),
                failure -> {
                    if (failure instanceof LockExpiredException) {
                        LOG.debugf("Lock '%s' was already free when released because %s", key, reason);
                    } else {
                        LOG.warnf(failure, "Could not release lock '%s' after %s; it frees when its lease runs out",
                                key, reason);
                    }
                });
    }

    private void abandon(AtomicBoolean abandoned) {
        abandoned.set(true);
        Hold current = hold;
        if (current != null) {
            releaseQuietly(current, "its operation was cancelled");
        }
    }

    LockException storeFailure(String operation, Throwable failure) {
        if (failure instanceof LockException lockException) {
            return lockException;
        }
        registry.observer.storeFailed(metricsName(), key, operation);
        return new LockException(key, "Could not " + operation + " lock '" + key + "' in the "
                + registry.store.name() + " store: " + failure.getMessage(), failure);
    }
}
