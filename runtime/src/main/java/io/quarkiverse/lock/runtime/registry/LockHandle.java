package io.quarkiverse.lock.runtime.registry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.OptionalLong;

import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.observe.LockTracer.AcquireSpan;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * A handle on one lock: a key, an unguessable id of its own, and its current {@link Hold} ({@code null} when it holds
 * nothing). Each acquisition gets an owner id of its own ({@link #newAcquisitionId()}), so the store, the hand-over
 * messages and the local line tell this handle's acquisitions apart. The hold is taken and cleared by compare-and-set,
 * so one hold is released at most once however release, failure and cancellation race. What the handle's type decides
 * is its {@link LockTypeStrategy}; guarded executions run in {@link GuardedExecution}; what it shares with the other
 * handles of its registry comes as {@link LockServices}.
 */
final class LockHandle implements ReactiveDistributedLock {

    private static final Uni<Boolean> FALSE = Uni.createFrom().item(Boolean.FALSE);
    private static final VarHandle HOLD;
    private static final VarHandle ACQUISITIONS;

    static {
        try {
            HOLD = MethodHandles.lookup().findVarHandle(LockHandle.class, "hold", Hold.class);
            ACQUISITIONS = MethodHandles.lookup().findVarHandle(LockHandle.class, "acquisitions", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LockServices services;
    private final String key;
    private final String id;
    private volatile Hold hold;
    /** Orders the recording of grants, so that the latest grant and the hold agree. */
    private final Object grants = new Object();
    /** The latest grant recorded, kept after its hold ended; written under {@link #grants}. */
    private volatile Grant latestGrant;
    private volatile long acquisitions;
    private volatile HandleOptions options;

    LockHandle(LockServices services, String key, String id, HandleOptions options) {
        this.services = services;
        this.key = key;
        this.id = id;
        this.options = options;
    }

    /** This handle's unguessable id and a sequence number: unique per acquisition, and as unguessable. */
    String newAcquisitionId() {
        return id + '.' + Long.toString((long) ACQUISITIONS.getAndAdd(this, 1L), 36);
    }

    LockServices services() {
        return services;
    }

    String metricsName() {
        return options.metricsName();
    }

    LockType type() {
        return options.type();
    }

    long holdAtLeastMillis() {
        return options.holdAtLeastMillis();
    }

    @Override
    public String getLockKey() {
        return key;
    }

    @Override
    public Uni<Boolean> acquireOnce() {
        return acquired(0, services.defaultLeaseMillis());
    }

    @Override
    public Uni<Boolean> acquireForever() {
        return acquired(0, LockStore.NO_EXPIRY);
    }

    @Override
    public Uni<Boolean> acquire() {
        return acquired(services.defaultWaitNanos(), services.defaultLeaseMillis());
    }

    @Override
    public Uni<Boolean> acquire(Duration wait) {
        return acquired(LockArguments.requireWait(wait), services.defaultLeaseMillis());
    }

    @Override
    public Uni<Boolean> acquire(Duration wait, Duration lease) {
        return acquired(LockArguments.requireWait(wait), LockArguments.requireLease(lease));
    }

    Uni<Boolean> acquired(long waitNanos, long leaseMillis) {
        LockArguments.requireLeaseCoversHold(leaseMillis, options.holdAtLeastMillis());
        return Uni.createFrom().deferred(() -> new ClaimedAcquisition(this, waitNanos, leaseMillis, false))
                .map(held -> held != null);
    }

    /** Emits the hold acquired or entered again, or {@code null} if not acquired; tells the span its place in line. */
    Uni<Hold> acquisition(long waitNanos, long leaseMillis, AcquireSpan span) {
        return options.strategy().acquisition(this, waitNanos, leaseMillis, span);
    }

    /**
     * {@inheritDoc}
     * <p>
     * Releases as this handle's type says ({@link LockTypeStrategy#release}).
     */
    @Override
    public Uni<Boolean> release() {
        return options.strategy().release(this);
    }

    @Override
    public Uni<Boolean> isAcquired() {
        return Uni.createFrom().deferred(() -> {
            Hold current = hold;
            if (current == null || current.isLost()) {
                return FALSE;
            }
            return services.boundedStore().isHeld(key, current.owner())
                    .onFailure().transform(failure -> storeFailure("check", failure));
        });
    }

    /**
     * {@inheritDoc}
     * <p>
     * Sends {@link LockStore#renew} with the new lease (or what remains of the minimum hold, if longer) for the hold
     * this handle has, in that hold's line of lease commands ({@link Hold#extend}), so that it is sent after the
     * renewals and re-entries asked for before it and never after the release that ends the hold.
     */
    @Override
    public Uni<Boolean> extend(Duration lease) {
        long leaseMillis = LockArguments.requireLease(lease);
        return Uni.createFrom().deferred(() -> {
            Hold current = hold;
            if (current == null || current.isLost()) {
                return FALSE;
            }
            return current.extend(leaseMillis)
                    .onFailure().transform(failure -> storeFailure("extend", failure));
        });
    }

    @Override
    public OptionalLong fencingToken() {
        Hold current = hold;
        return current == null ? OptionalLong.empty() : OptionalLong.of(current.token());
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
    public ReactiveDistributedLock withHoldAtLeast(Duration holdAtLeast) {
        this.options = options.withHoldAtLeast(LockArguments.requireHoldAtLeast(holdAtLeast));
        return this;
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Uni<T> action) {
        return acquireAndExecute(services.defaultWait(), action);
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Duration wait, Uni<T> action) {
        return acquireAndExecute(wait, services.defaultLease(), action);
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Duration wait, Duration lease, Uni<T> action) {
        return GuardedExecution.uni(this, wait, lease, action);
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Multi<T> action) {
        return acquireAndExecuteMany(services.defaultWait(), action);
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Duration wait, Multi<T> action) {
        return acquireAndExecuteMany(wait, services.defaultLease(), action);
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Duration wait, Duration lease, Multi<T> action) {
        return GuardedExecution.multi(this, wait, lease, action);
    }

    @Override
    public DistributedLock toBlocking() {
        return new BlockingLockView(this, GuardedExecution.sections(this));
    }

    @Override
    public String toString() {
        return "Lock[key=" + key + ", type=" + options.type() + ", store=" + services.boundedStore().name() + ", held="
                + (hold != null) + "]";
    }

    Hold currentHold() {
        return hold;
    }

    /** Whether this handle has a hold that was not found lost, other than {@code over} (which may be null). */
    boolean isHeldLocallyBesides(Hold over) {
        Hold current = hold;
        return current != null && current != over && !current.isLost();
    }

    /**
     * Records a grant from the store as this handle's hold, and starts renewing its lease if this handle renews. A
     * hold the handle still had is over: the store granted another acquisition after it, so that hold's lease had run
     * out or it was taken over. A grant asked for before the handle recorded a later grant is stale: with a lower
     * token, the store made it before that one, so it is over in the store; with a higher token, the store made it
     * after, so that later grant is over instead, and its hold (if the handle still has it) is found lost. A grant
     * asked for after the latest one was recorded stands whatever its token: below it, the store's tokens went back
     * (it lost its data). Every hold this ends is also taken back by its owner id, which frees nothing if the store
     * had already ended it, and frees what a store that lost its data granted since.
     *
     * @param leaseSinceNanos when the lease began at the latest: it runs at least until then plus the lease
     * @param askedNanos when the grant was asked for (its request sent, or its hand-over heard)
     * @return the hold made of the grant, or {@code null} if the grant is stale (its acquisition then takes back what
     *         it was granted, and does not hold the lock)
     */
    Hold onGranted(String owner, long token, long leaseMillis, long leaseSinceNanos, long askedNanos) {
        HandleOptions current = options;
        Hold granted = current.strategy().newHold(owner, token, leaseMillis, current.holdAtLeastMillis(), this,
                current.renewLease());
        Hold ended;
        boolean stale;
        synchronized (grants) {
            Grant last = latestGrant;
            stale = last != null && askedNanos - last.recordedNanos() < 0;
            if (stale) {
                Hold held = hold;
                ended = last.token() < token && held != null && held.token() == last.token()
                        && HOLD.compareAndSet(this, held, null) ? held : null;
            } else {
                ended = (Hold) HOLD.getAndSet(this, granted);
                latestGrant = new Grant(token, System.nanoTime());
            }
        }
        if (ended != null) {
            ended.lose(new LockExpiredException(key));
            TakeBack.send(services, key, ended.owner(), ended.longestLeaseMillis()).subscribe().with(ignored -> {
            });
        }
        if (stale) {
            return null;
        }
        granted.startRenewal(leaseSinceNanos);
        return granted;
    }

    /** The latest grant a handle recorded: its token, and when it was recorded. */
    private record Grant(long token, long recordedNanos) {
    }

    /**
     * Whether a guarded action may start under {@code held}: it is still this handle's hold and was not found lost.
     * A later grant to another acquisition of this handle replaces it, and proves it over in the store; an action
     * started then would run without the lock, reading the later hold's fencing token as its own.
     */
    boolean stillHolds(Hold held) {
        return hold == held && !held.isLost();
    }

    /**
     * Releases one entry of this hold, and ends it with the last, keeping the lock held in the store until this
     * handle's minimum hold after its acquisition ({@link HoldRelease}).
     *
     * @return {@code true} when released (or entries remain); {@code false} when this handle no longer had that hold;
     *         fails with {@link LockExpiredException} when the store no longer had it for this acquisition
     */
    Uni<Boolean> releaseHold(Hold held) {
        return HoldRelease.release(this, held, holdAtLeastMillis());
    }

    /** Drops that hold: {@code true} if this handle had it (and now no longer has), {@code false} otherwise. */
    boolean dropHold(Hold held) {
        return HOLD.compareAndSet(this, held, null);
    }

    /** Forgets a hold a re-entry found lost in the store. */
    void dropLostHold(Hold lost) {
        if (HOLD.compareAndSet(this, lost, null)) {
            lost.lose(new LockExpiredException(key));
        }
    }

    /**
     * Drops whatever hold this handle has (an overriding release).
     *
     * @return the hold it had, or {@code null}
     */
    Hold dropCurrentHold() {
        return (Hold) HOLD.getAndSet(this, null);
    }

    /** The failure to hand to this handle's caller ({@link StoreFailures}). */
    LockException storeFailure(String operation, Throwable failure) {
        return services.failures().toLockException(metricsName(), key, operation, failure);
    }
}
