package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * A store whose next acquisition's reply, once it is asked for ({@link #holdNextReply()}), is decided by the store at
 * once but held back from the registry until the test delivers it ({@link #deliverHeldReply()}): a grant late in the
 * network, at the moment the test chooses.
 */
final class HeldReplies {

    private final CompletableFuture<AcquireResult> decided = new CompletableFuture<>();
    private final CompletableFuture<Void> delivered = new CompletableFuture<>();
    private volatile boolean holdNext;

    LockStore on(LockStore delegate) {
        return new ForwardingLockStore(delegate) {

            @Override
            public boolean answersAtOnce() {
                return false;
            }

            @Override
            public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
                if (!holdNext) {
                    return super.tryAcquire(key, owner, leaseMillis, waiting);
                }
                holdNext = false;
                return super.tryAcquire(key, owner, leaseMillis, waiting)
                        .invoke(decided::complete)
                        .call(() -> Uni.createFrom().completionStage(delivered));
            }
        };
    }

    void holdNextReply() {
        holdNext = true;
    }

    boolean heldReplyGranted() throws Exception {
        return decided.get(5, TimeUnit.SECONDS).acquired();
    }

    void deliverHeldReply() throws Exception {
        heldReplyGranted();
        delivered.complete(null);
    }
}
