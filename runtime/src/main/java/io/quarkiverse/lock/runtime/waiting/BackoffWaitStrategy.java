package io.quarkiverse.lock.runtime.waiting;

import java.util.concurrent.ThreadLocalRandom;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Waits with capped exponential backoff and jitter on a Vert.x timer, and wakes early when a handle of this JVM
 * releases the key or the waiter's turn comes.
 * <p>
 * Only the first waiter in line polls the store; the others pause until their turn or the end of their wait. The
 * first waiter's n-th pause lasts a random time between half and all of {@code min(MIN * 2^(n-1), MAX)}, never past
 * the holder's remaining lease (when the store tells it) nor the caller's wait. Jitter keeps contenders of several
 * instances from retrying in step. While the store announces every release ({@link Waiter#hearsEveryRelease()}),
 * polling is only the fallback for a lost announcement, so the ceiling is a fixed, longer one instead.
 */
public final class BackoffWaitStrategy implements WaitStrategy {

    static final long MIN_MILLIS = 2;
    static final long MAX_MILLIS = 64;
    /**
     * The ceiling of every pause while every release is announced: a quarter of the second a waiter keeps its place
     * in a store's line between two attempts, which leaves 750 ms for an attempt's round trip and a stall.
     */
    static final long ANNOUNCED_MILLIS = 250;

    private final Vertx vertx;
    private final long minMillis;
    private final long maxMillis;
    private final long announcedMillis;

    /**
     * @param vertx the Vert.x instance whose timers drive the pauses
     */
    public BackoffWaitStrategy(Vertx vertx) {
        this(vertx, MIN_MILLIS, MAX_MILLIS, ANNOUNCED_MILLIS);
    }

    /**
     * Pauses that back off the same way whether releases are announced or not.
     *
     * @param vertx the Vert.x instance whose timers drive the pauses
     * @param minMillis the ceiling of the first pause, positive
     * @param maxMillis the longest pause, at least {@code minMillis}
     */
    public BackoffWaitStrategy(Vertx vertx, long minMillis, long maxMillis) {
        this(vertx, minMillis, maxMillis, 0);
    }

    /**
     * @param vertx the Vert.x instance whose timers drive the pauses
     * @param minMillis the ceiling of the first pause, positive
     * @param maxMillis the longest pause, at least {@code minMillis}
     * @param announcedMillis the ceiling of every pause while every release is announced, or 0 to back off then as
     *        otherwise
     */
    public BackoffWaitStrategy(Vertx vertx, long minMillis, long maxMillis, long announcedMillis) {
        this.vertx = vertx;
        this.minMillis = minMillis;
        this.maxMillis = maxMillis;
        this.announcedMillis = announcedMillis;
    }

    @Override
    public Uni<Void> pause(Waiter waiter, int failedAttempts, long holderRemainingMillis, long remainingNanos) {
        long delay = delayMillis(waiter, failedAttempts, holderRemainingMillis, remainingNanos);
        return Uni.createFrom().emitter(emitter -> {
            Context context = callerContext();
            Wakeup wakeup = new Wakeup(() -> context.runOnContext(ignored -> emitter.complete(null)));
            long timer = vertx.setTimer(delay, id -> wakeup.fire());
            waiter.park(wakeup);
            emitter.onTermination(() -> {
                vertx.cancelTimer(timer);
                waiter.unpark(wakeup);
            });
        });
    }

    /**
     * @return the pause of {@code waiter} after {@code failedAttempts}, in ms: until its wait ends unless it is first
     *         in line and has attempted
     */
    long delayMillis(Waiter waiter, int failedAttempts, long holderRemainingMillis, long remainingNanos) {
        if (!waiter.isHead() || failedAttempts == 0) {
            return toMillis(remainingNanos);
        }
        boolean announced = announcedMillis > 0 && waiter.hearsEveryRelease();
        return delayMillis(failedAttempts, holderRemainingMillis, remainingNanos,
                announced ? announcedMillis : minMillis, announced ? announcedMillis : maxMillis);
    }

    /**
     * The waiter resumes on the Vert.x context it paused on (so a caller on an event loop stays on it), or on an
     * event loop when it paused elsewhere. Resuming through the context also keeps a chain of local hand-offs from
     * growing the releasing thread's stack.
     */
    private Context callerContext() {
        Context current = Vertx.currentContext();
        return current != null ? current : vertx.getOrCreateContext();
    }

    /** The pause before the next attempt, in ms, at least 1; {@code holderRemainingMillis} negative if unknown. */
    static long delayMillis(int failedAttempts, long holderRemainingMillis, long remainingNanos, long minMillis,
            long maxMillis) {
        int doublings = Math.min(Math.max(failedAttempts - 1, 0), 30);
        long ceiling = Math.min(minMillis << doublings, maxMillis);
        long delay = ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling - ceiling / 2 + 1);
        if (holderRemainingMillis >= 0) {
            delay = Math.min(delay, holderRemainingMillis + 1);
        }
        return Math.max(1, Math.min(delay, toMillis(remainingNanos)));
    }

    private static long toMillis(long remainingNanos) {
        return Math.max(1, remainingNanos / 1_000_000 + (remainingNanos % 1_000_000 == 0 ? 0 : 1));
    }
}
