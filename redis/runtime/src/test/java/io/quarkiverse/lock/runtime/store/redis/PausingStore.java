package io.quarkiverse.lock.runtime.store.redis;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * A store that delegates to a real store, but can stop the thread that subscribes to the next
 * {@link #tryAcquire} right there, before the command is handed to the connection, as a thread preempted at that
 * moment would be. Changes no behaviour, only the timing of one thread.
 */
final class PausingStore extends ForwardingLockStore {

    private final AtomicBoolean pauseNext = new AtomicBoolean();
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch gate = new CountDownLatch(1);
    final CountDownLatch takenBack = new CountDownLatch(1);

    PausingStore(LockStore delegate) {
        super(delegate);
    }

    void pauseNextAcquire() {
        pauseNext.set(true);
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
    public Uni<Boolean> takeBack(String key, String owner) {
        return delegate.takeBack(key, owner).invoke(ignored -> takenBack.countDown());
    }
}
