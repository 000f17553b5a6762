package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CompletableFuture;

import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * A store whose client delivers every waiting attempt to the store after a delay, whatever its caller does meanwhile
 * (cancels it, or times it out): as Redis's client sending a script again after {@code NOSCRIPT}, a MongoDB driver
 * retrying a write on a new connection, or any command already on the wire. One-try attempts and every other
 * operation go through at once.
 */
final class LateDeliveringStore extends ForwardingLockStore {

    private final Vertx vertx;
    private final long delayMillis;
    private final boolean networked;

    /**
     * @param networked what {@link #answersAtOnce()} denies: {@code true} makes the registry bound the store's
     *        operations with its operation timeout
     */
    LateDeliveringStore(LockStore delegate, Vertx vertx, long delayMillis, boolean networked) {
        super(delegate);
        this.vertx = vertx;
        this.delayMillis = delayMillis;
        this.networked = networked;
    }

    @Override
    public boolean answersAtOnce() {
        return !networked && super.answersAtOnce();
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        if (!waiting) {
            return super.tryAcquire(key, owner, leaseMillis, false);
        }
        CompletableFuture<AcquireResult> answer = new CompletableFuture<>();
        vertx.setTimer(delayMillis, id -> delegate.tryAcquire(key, owner, leaseMillis, true).subscribe()
                .with(answer::complete, answer::completeExceptionally));
        return Uni.createFrom().completionStage(answer);
    }
}
