package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CompletableFuture;

import io.quarkiverse.lock.LockExpiredException;

/**
 * One acquisition a handle holds: its fencing token and lease and, when its lease is renewed, the renewal and a
 * signal that ends when the hold ends, failing with {@link LockExpiredException} if a renewal found the lock lost.
 * A hold without renewal is two longs: many held locks cost little memory.
 */
final class Hold {

    final long token;
    final long leaseMillis;
    final LeaseRenewal renewal;
    final CompletableFuture<Void> end;

    Hold(long token, long leaseMillis, LockHandle renewedBy) {
        this.token = token;
        this.leaseMillis = leaseMillis;
        this.renewal = renewedBy == null ? null : new LeaseRenewal(renewedBy, this);
        this.end = renewedBy == null ? null : new CompletableFuture<>();
    }

    /**
     * Ends the hold: stops its renewal and completes its signal normally, unless it already ended.
     */
    void ended() {
        if (renewal != null) {
            renewal.stop();
            end.complete(null);
        }
    }

    /**
     * Records that the holder lost the lock: stops the renewal and fails the signal.
     */
    void lost(LockExpiredException failure) {
        renewal.stop();
        end.completeExceptionally(failure);
    }

    void stopRenewal() {
        if (renewal != null) {
            renewal.stop();
        }
    }

    boolean isLost() {
        return end != null && end.isCompletedExceptionally();
    }
}
