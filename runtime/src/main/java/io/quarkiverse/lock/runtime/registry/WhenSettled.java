package io.quarkiverse.lock.runtime.registry;

import java.util.function.BooleanSupplier;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Runs an action once a condition holds, or at a deadline: a closing registry closes its store once every operation
 * sent to it has ended and nothing is left unsettled. On an event loop, which must not block, the condition is checked
 * on a timer and the call returns at once; on any other thread the call waits, and an interrupt does not cut the wait
 * short (the thread's interrupt status is kept for its caller).
 */
final class WhenSettled {

    /** How often the condition is checked. */
    static final long CHECK_MILLIS = 5;

    private WhenSettled() {
    }

    /**
     * @param settled whether the action may run now
     * @param deadlineNanos the {@link System#nanoTime()} at which the action runs whatever the condition says
     * @param vertx the timers used on an event loop
     * @param action run once, on this thread unless called on an event loop
     */
    static void run(BooleanSupplier settled, long deadlineNanos, Vertx vertx, Runnable action) {
        if (Context.isOnEventLoopThread()) {
            check(settled, deadlineNanos, vertx, action);
        } else {
            awaitUninterruptibly(settled, deadlineNanos);
            action.run();
        }
    }

    private static void check(BooleanSupplier settled, long deadlineNanos, Vertx vertx, Runnable action) {
        if (settled.getAsBoolean() || System.nanoTime() - deadlineNanos >= 0) {
            action.run();
        } else {
            vertx.setTimer(CHECK_MILLIS, id -> check(settled, deadlineNanos, vertx, action));
        }
    }

    private static void awaitUninterruptibly(BooleanSupplier settled, long deadlineNanos) {
        boolean interrupted = false;
        while (!settled.getAsBoolean() && System.nanoTime() - deadlineNanos < 0) {
            try {
                Thread.sleep(CHECK_MILLIS);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
