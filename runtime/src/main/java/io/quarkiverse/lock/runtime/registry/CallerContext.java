package io.quarkiverse.lock.runtime.registry;

import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Delivers a result on the Vert.x context its operation was started on. Store replies and release messages arrive on
 * the client's own event loop; code after an acquisition (a {@code @Locked} body, Hibernate Reactive, OpenTelemetry)
 * expects the request's context, so a result that arrives elsewhere is moved back there.
 */
final class CallerContext {

    private CallerContext() {
    }

    /**
     * @return the event-loop context of the calling thread, or {@code null} if it runs on none or on a worker context
     *         (a worker context runs one task at a time, and its current task may be the one blocked waiting for
     *         this result: delivering there would never happen)
     */
    static Context capture() {
        Context current = Vertx.currentContext();
        return current != null && current.isEventLoopContext() ? current : null;
    }

    /** Runs {@code delivery} now if the calling thread is on {@code context} (or it is {@code null}), else there. */
    static void deliver(Context context, Runnable delivery) {
        if (context == null || Vertx.currentContext() == context) {
            delivery.run();
        } else {
            context.runOnContext(ignored -> delivery.run());
        }
    }
}
