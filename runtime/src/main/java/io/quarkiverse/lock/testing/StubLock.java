package io.quarkiverse.lock.testing;

import java.time.Duration;
import java.util.OptionalLong;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.runtime.registry.BlockingLockView;
import io.quarkiverse.lock.runtime.registry.LockArguments;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * A handle of {@link LockRegistryStub}: answers acquisitions as the stub says and keeps its own hold. Its arguments are
 * checked as production checks them ({@link LockArguments}), and its blocking view is production's
 * ({@link BlockingLockView}).
 */
final class StubLock implements ReactiveDistributedLock, BlockingLockView.Sections {

    private static final Duration NO_WAIT = Duration.ZERO;
    /** The lease of an acquisition that names none: the default of {@code quarkus.lock.expire-after}. */
    private static final Duration DEFAULT_LEASE = Duration.ofSeconds(10);

    private final LockRegistryStub registry;
    private final String key;
    private final boolean reentrant;
    private volatile long token;
    private int entries;
    /** Carried by the exceptions, as a registry's handle does; the registry's name of a handle given none. */
    private volatile String metricsName = LockObserver.UNNAMED;

    StubLock(LockRegistryStub registry, String key, boolean reentrant) {
        this.registry = registry;
        this.key = key;
        this.reentrant = reentrant;
    }

    @Override
    public String getLockKey() {
        return key;
    }

    @Override
    public Uni<Boolean> acquireOnce() {
        return Uni.createFrom().item(this::tryAcquire);
    }

    @Override
    public Uni<Boolean> acquireForever() {
        return acquireOnce();
    }

    @Override
    public Uni<Boolean> acquire() {
        return acquireOnce();
    }

    @Override
    public Uni<Boolean> acquire(Duration wait) {
        LockArguments.requireWait(wait);
        return acquireOnce();
    }

    @Override
    public Uni<Boolean> acquire(Duration wait, Duration lease) {
        LockArguments.requireWait(wait);
        LockArguments.requireLease(lease);
        return acquireOnce();
    }

    private synchronized boolean tryAcquire() {
        if (token != 0) {
            if (reentrant) {
                entries++;
                registry.onReentry();
            }
            return reentrant;
        }
        if (!registry.nextAnswer()) {
            return false;
        }
        token = registry.nextToken();
        entries = 1;
        return true;
    }

    @Override
    public Uni<Boolean> release() {
        return Uni.createFrom().item(this::releaseNow);
    }

    private synchronized boolean releaseNow() {
        boolean held = token != 0;
        if (held && --entries > 0) {
            registry.onRelease(true);
            return true;
        }
        token = 0;
        registry.onRelease(held);
        return held;
    }

    @Override
    public Uni<Boolean> isAcquired() {
        return Uni.createFrom().item(() -> token != 0);
    }

    /**
     * {@inheritDoc}
     * <p>
     * The stub's leases never run out: it answers {@code true} while this handle holds the lock.
     */
    @Override
    public Uni<Boolean> extend(Duration lease) {
        LockArguments.requireLease(lease);
        return Uni.createFrom().item(() -> token != 0);
    }

    @Override
    public OptionalLong fencingToken() {
        long current = token;
        return current == 0 ? OptionalLong.empty() : OptionalLong.of(current);
    }

    @Override
    public ReactiveDistributedLock withLeaseRenewal(boolean renew) {
        return this;
    }

    @Override
    public ReactiveDistributedLock withHoldAtLeast(Duration holdAtLeast) {
        LockArguments.requireHoldAtLeast(holdAtLeast);
        return this;
    }

    @Override
    public ReactiveDistributedLock withMetricsName(String name) {
        metricsName = LockArguments.requireMetricsName(name);
        return this;
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Uni<T> action) {
        return acquireAndExecute(NO_WAIT, action);
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Duration wait, Uni<T> action) {
        return acquireAndExecute(wait, DEFAULT_LEASE, action);
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Duration wait, Duration lease, Uni<T> action) {
        checkExecution(wait, lease, action);
        return acquireOnce().flatMap(acquired -> acquired
                ? action.onTermination().call(this::release)
                : Uni.createFrom().failure(new CannotAcquireLockException(key, metricsName, wait)));
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Multi<T> action) {
        return acquireAndExecuteMany(NO_WAIT, action);
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Duration wait, Multi<T> action) {
        return acquireAndExecuteMany(wait, DEFAULT_LEASE, action);
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Duration wait, Duration lease, Multi<T> action) {
        checkExecution(wait, lease, action);
        return acquireOnce().onItem().transformToMulti(acquired -> acquired
                ? action.onTermination().call((failure, cancelled) -> release())
                : Multi.createFrom().failure(new CannotAcquireLockException(key, metricsName, wait)));
    }

    private static void checkExecution(Duration wait, Duration lease, Object action) {
        LockArguments.requireWait(wait);
        LockArguments.requireLease(lease);
        LockArguments.requireAction(action);
    }

    @Override
    public String lockName() {
        return metricsName;
    }

    @Override
    public DistributedLock toBlocking() {
        return new BlockingLockView(this, this);
    }

    /**
     * @return no wait: the stub answers at once
     */
    @Override
    public Duration defaultWait() {
        return NO_WAIT;
    }

    @Override
    public Duration defaultLease() {
        return DEFAULT_LEASE;
    }

    /**
     * A section of the blocking view: acquires as {@link #acquireOnce()} does, and releases with {@link #release()}.
     */
    @Override
    public BlockingLockView.Claim claim(Duration wait, Duration lease) {
        LockArguments.requireWait(wait);
        LockArguments.requireLease(lease);
        return new BlockingLockView.Claim() {
            @Override
            public Uni<Boolean> acquisition() {
                return acquireOnce();
            }

            @Override
            public Uni<Boolean> release() {
                return StubLock.this.release();
            }
        };
    }
}
