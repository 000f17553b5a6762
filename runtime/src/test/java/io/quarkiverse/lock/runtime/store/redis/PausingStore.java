package io.quarkiverse.lock.runtime.store.redis;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.quarkiverse.lock.runtime.store.AcquireResult;
import io.quarkiverse.lock.runtime.store.LockStore;
import io.quarkiverse.lock.runtime.store.ReleaseListener;
import io.smallrye.mutiny.Uni;

/**
 * Break-test helper: delegates to a real store, but can stop the thread that subscribes to the next
 * {@link #tryAcquire} right there, before the command is handed to the connection, as a thread preempted at that
 * moment would be. Changes no behaviour, only the timing of one thread.
 */
final class PausingStore implements LockStore {

    private final LockStore delegate;
    private final AtomicBoolean pauseNext = new AtomicBoolean();
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch gate = new CountDownLatch(1);
    final CountDownLatch takenBack = new CountDownLatch(1);

    PausingStore(LockStore delegate) {
        this.delegate = delegate;
    }

    void pauseNextAcquire() {
        pauseNext.set(true);
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        Uni<AcquireResult> real = delegate.tryAcquire(key, owner, leaseMillis, waiting);
        if (!pauseNext.compareAndSet(true, false)) {
            return real;
        }
        return Uni.createFrom().deferred(() -> {
            reached.countDown();
            try {
                gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return real;
        });
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
        return delegate.takeBack(key, owner).invoke(ignored -> takenBack.countDown());
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
    public Uni<Boolean> isHeld(String key, String owner) {
        return delegate.isHeld(key, owner);
    }

    @Override
    public AutoCloseable watchReleases(ReleaseListener listener) {
        return delegate.watchReleases(listener);
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
