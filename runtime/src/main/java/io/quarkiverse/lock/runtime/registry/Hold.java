package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CompletableFuture;

import io.quarkiverse.lock.LockExpiredException;

/**
 * One acquisition a handle holds: its fencing token and lease, the renewal that keeps it alive if asked for, and a
 * signal that ends when the hold ends, failing with {@link LockExpiredException} if the holder lost the lock while
 * holding it (a renewal found it gone).
 */
final class Hold {

    final long token;
    final long leaseMillis;
    final CompletableFuture<Void> end = new CompletableFuture<>();
    volatile LeaseRenewal renewal;

    Hold(long token, long leaseMillis) {
        this.token = token;
        this.leaseMillis = leaseMillis;
    }

    /**
     * Ends the hold: stops its renewal and completes its signal normally, unless it already ended.
     */
    void ended() {
        stopRenewal();
        end.complete(null);
    }

    /**
     * Records that the holder lost the lock: stops the renewal and fails the signal.
     */
    void lost(LockExpiredException failure) {
        stopRenewal();
        end.completeExceptionally(failure);
    }

    void stopRenewal() {
        LeaseRenewal current = renewal;
        if (current != null) {
            current.stop();
        }
    }

    boolean isLost() {
        return end.isCompletedExceptionally();
    }
}
