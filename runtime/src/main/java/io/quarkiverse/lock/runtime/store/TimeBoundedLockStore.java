package io.quarkiverse.lock.runtime.store;

import io.quarkiverse.lock.spi.ReleaseListener;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;

/**
 * Bounds every operation of a store in time, so that a store that does not answer (a hung server, a lost network)
 * makes operations fail within {@code quarkus.lock.operation-timeout} instead of hanging. An operation that timed out
 * is cancelled, so nothing of it (such as a retry) runs later, and the store is told ({@link LockStore#noAnswer(Duration)}),
 * so it can replace a connection that swallows traffic. An acquire that timed out may still be granted by the store
 * afterwards: the acquisition takes it back by its owner id, which the store runs after the acquire.
 */
public final class TimeBoundedLockStore implements LockStore {

    private static final Cancellable TIMED_OUT = () -> {
    };

    private final LockStore delegate;
    private final Duration timeout;
    private final long timeoutMillis;
    private final Vertx vertx;

    /**
     * @param delegate the store
     * @param timeout how long an operation may take, positive
     * @param vertx the Vert.x instance whose timers bound the operations
     */
    public TimeBoundedLockStore(LockStore delegate, Duration timeout, Vertx vertx) {
        this.delegate = delegate;
        this.timeout = timeout;
        this.timeoutMillis = Math.max(1, timeout.toMillis());
        this.vertx = vertx;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        return bounded(delegate.tryAcquire(key, owner, leaseMillis, waiting));
    }

    @Override
    public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
        return bounded(delegate.takeOver(key, owner, leaseMillis));
    }

    @Override
    public Uni<Boolean> forceRelease(String key) {
        return bounded(delegate.forceRelease(key));
    }

    @Override
    public Uni<Boolean> takeBack(String key, String owner) {
        return bounded(delegate.takeBack(key, owner));
    }

    @Override
    public Uni<Boolean> release(String key, String owner) {
        return bounded(delegate.release(key, owner));
    }

    @Override
    public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
        return bounded(delegate.renew(key, owner, leaseMillis));
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        return bounded(delegate.isHeld(key, owner));
    }

    @Override
    public Uni<Void> ping() {
        return bounded(delegate.ping());
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
    public void start() {
        delegate.start();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public void evictExpired() {
        delegate.evictExpired();
    }

    /**
     * Races the operation against a Vert.x timer. A timer is cancelled (and forgotten) as soon as the operation
     * answers, so a high rate of operations keeps no pending timeouts in memory. The operation is cancelled when the
     * timer wins or the caller cancels, so no later step of it (a script sent again after {@code NOSCRIPT}) can run
     * after the caller moved on.
     */
    private <T> Uni<T> bounded(Uni<T> operation) {
        return Uni.createFrom().emitter(emitter -> {
            AtomicBoolean answered = new AtomicBoolean();
            AtomicReference<Cancellable> running = new AtomicReference<>();
            long timer = vertx.setTimer(timeoutMillis, id -> {
                if (answered.compareAndSet(false, true)) {
                    Cancellable call = running.getAndSet(TIMED_OUT);
                    if (call != null) {
                        call.cancel();
                    }
                    delegate.noAnswer(timeout);
                    emitter.fail(new StoreTimeoutException(timeout));
                }
            });
            emitter.onTermination(() -> {
                vertx.cancelTimer(timer);
                if (answered.compareAndSet(false, true)) {
                    Cancellable call = running.getAndSet(TIMED_OUT);
                    if (call != null) {
                        call.cancel();
                    }
                }
            });
            Cancellable call = operation.subscribe().with(item -> {
                if (answered.compareAndSet(false, true)) {
                    vertx.cancelTimer(timer);
                    emitter.complete(item);
                }
            }, failure -> {
                if (answered.compareAndSet(false, true)) {
                    vertx.cancelTimer(timer);
                    emitter.fail(failure);
                }
            });
            if (!running.compareAndSet(null, call)) {
                call.cancel();
            }
        });
    }

    /** The store did not answer in time. */
    static final class StoreTimeoutException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        StoreTimeoutException(Duration timeout) {
            super("no answer within " + timeout + " (quarkus.lock.operation-timeout)");
        }
    }
}
