package io.quarkiverse.lock.testing;

import java.time.Duration;
import java.util.OptionalLong;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockedSection;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.LockArguments;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * A handle of {@link LockRegistryStub}: answers acquisitions as the stub says and keeps its own hold.
 */
final class StubLock implements ReactiveDistributedLock {

    private static final Duration NO_WAIT = Duration.ZERO;

    private final LockRegistryStub registry;
    private final String key;
    private final boolean reentrant;
    private volatile long token;
    private int entries;

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
        return acquireOnce();
    }

    @Override
    public Uni<Boolean> acquire(Duration wait, Duration lease) {
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
        LockArguments.requireMetricsName(name);
        return this;
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Uni<T> action) {
        return acquireAndExecute(NO_WAIT, action);
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Duration wait, Uni<T> action) {
        return acquireAndExecute(wait, NO_WAIT, action);
    }

    @Override
    public <T> Uni<T> acquireAndExecute(Duration wait, Duration lease, Uni<T> action) {
        return acquireOnce().flatMap(acquired -> acquired
                ? action.onTermination().call(this::release)
                : Uni.createFrom().failure(new CannotAcquireLockException(key, wait)));
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Multi<T> action) {
        return acquireAndExecuteMany(NO_WAIT, action);
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Duration wait, Multi<T> action) {
        return acquireAndExecuteMany(wait, NO_WAIT, action);
    }

    @Override
    public <T> Multi<T> acquireAndExecuteMany(Duration wait, Duration lease, Multi<T> action) {
        return acquireOnce().onItem().transformToMulti(acquired -> acquired
                ? action.onTermination().call((failure, cancelled) -> release())
                : Multi.createFrom().failure(new CannotAcquireLockException(key, wait)));
    }

    @Override
    public DistributedLock toBlocking() {
        StubLock lock = this;
        return new DistributedLock() {
            @Override
            public String getLockKey() {
                return key;
            }

            @Override
            public boolean acquireOnce() {
                return tryAcquire();
            }

            @Override
            public boolean acquireForever() {
                return tryAcquire();
            }

            @Override
            public boolean acquire() {
                return tryAcquire();
            }

            @Override
            public boolean acquire(Duration wait) {
                return tryAcquire();
            }

            @Override
            public boolean acquire(Duration wait, Duration lease) {
                return tryAcquire();
            }

            @Override
            public boolean release() {
                return releaseNow();
            }

            @Override
            public boolean isAcquired() {
                return token != 0;
            }

            @Override
            public OptionalLong fencingToken() {
                return lock.fencingToken();
            }

            @Override
            public <T, E extends Exception> T acquireAndExecute(LockedSection<T, E> action) throws E {
                return acquireAndExecute(NO_WAIT, NO_WAIT, action);
            }

            @Override
            public <T, E extends Exception> T acquireAndExecute(Duration wait, LockedSection<T, E> action) throws E {
                return acquireAndExecute(wait, NO_WAIT, action);
            }

            @Override
            public <T, E extends Exception> T acquireAndExecute(Duration wait, Duration lease,
                    LockedSection<T, E> action) throws E {
                if (!tryAcquire()) {
                    throw new CannotAcquireLockException(key, wait);
                }
                try {
                    return action.run();
                } finally {
                    releaseNow();
                }
            }

            @Override
            public DistributedLock withLeaseRenewal(boolean renew) {
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
        };
    }
}
