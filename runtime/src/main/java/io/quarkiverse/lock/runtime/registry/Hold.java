package io.quarkiverse.lock.runtime.registry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

import io.quarkiverse.lock.LockExpiredException;

/**
 * One acquisition a handle holds: its fencing token and lease and, when its lease is renewed, the renewal and a
 * signal that ends when the hold ends, failing with {@link LockExpiredException} if a renewal found the lock lost.
 * A reentrant handle enters a hold several times; it ends at the last release. A hold without renewal is three longs and
 * an int: many held locks cost little memory.
 */
final class Hold {

    private static final VarHandle ENTRIES;

    static {
        try {
            ENTRIES = MethodHandles.lookup().findVarHandle(Hold.class, "entries", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final long token;
    final long leaseMillis;
    final long grantedAtNanos = System.nanoTime();
    final LeaseRenewal renewal;
    final CompletableFuture<Void> end;
    private volatile int entries = 1;

    Hold(long token, long leaseMillis, LockHandle renewedBy) {
        this.token = token;
        this.leaseMillis = leaseMillis;
        this.renewal = renewedBy == null ? null : new LeaseRenewal(renewedBy, this);
        this.end = renewedBy == null ? null : new CompletableFuture<>();
    }

    /**
     * Enters the hold once more (a reentrant acquisition).
     *
     * @return {@code true} if entered; {@code false} if the hold was left for good meanwhile
     */
    boolean enter() {
        int current;
        do {
            current = entries;
            if (current <= 0) {
                return false;
            }
        } while (!ENTRIES.compareAndSet(this, current, current + 1));
        return true;
    }

    /**
     * Leaves one entry of the hold.
     *
     * @return {@code true} if entries remain, so the lock stays held; {@code false} if this was the last
     */
    boolean leaveOneEntry() {
        return (int) ENTRIES.getAndAdd(this, -1) > 1;
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

    long heldNanos() {
        return System.nanoTime() - grantedAtNanos;
    }

    boolean isLost() {
        return end != null && end.isCompletedExceptionally();
    }
}
