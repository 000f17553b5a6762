package io.quarkiverse.lock.runtime.store;

import java.time.Duration;

import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.smallrye.mutiny.Uni;

/**
 * A store that hands every operation to another one: a store that wraps another (the registry's time bound, a test's
 * store that changes the timing or thread of an operation) extends it and overrides only the operations it changes.
 */
public abstract class ForwardingLockStore implements LockStore {

    /** The store every operation goes to. */
    protected final LockStore delegate;

    /**
     * @param delegate the store every operation goes to
     */
    protected ForwardingLockStore(LockStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        return delegate.tryAcquire(key, owner, leaseMillis, waiting);
    }

    @Override
    public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
        return delegate.takeOver(key, owner, leaseMillis);
    }

    @Override
    public Uni<Boolean> forceRelease(String key) {
        return delegate.forceRelease(key);
    }

    @Override
    public Uni<Boolean> takeBack(String key, String owner) {
        return delegate.takeBack(key, owner);
    }

    @Override
    public Uni<Boolean> release(String key, String owner) {
        return delegate.release(key, owner);
    }

    @Override
    public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
        return delegate.renew(key, owner, leaseMillis);
    }

    @Override
    public Uni<Boolean> releaseAfter(String key, String owner, long leaseMillis) {
        return delegate.releaseAfter(key, owner, leaseMillis);
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        return delegate.isHeld(key, owner);
    }

    @Override
    public Uni<LockPage> listHeld(String cursor, int limit) {
        return delegate.listHeld(cursor, limit);
    }

    @Override
    public AutoCloseable watchReleases(ReleaseListener listener) {
        return delegate.watchReleases(listener);
    }

    @Override
    public boolean answersAtOnce() {
        return delegate.answersAtOnce();
    }

    @Override
    public void noAnswer(Duration timeout) {
        delegate.noAnswer(timeout);
    }

    @Override
    public Uni<Void> ping() {
        return delegate.ping();
    }

    @Override
    public void start() {
        delegate.start();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
