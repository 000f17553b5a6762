package io.quarkiverse.lock.runtime.store.redis;

import io.netty.channel.EventLoop;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;
import io.vertx.redis.client.RedisConnection;

/**
 * The one event loop that writes a pipeline's commands, and the task it runs there (write what is queued).
 * <p>
 * Vert.x writes at once on a connection's own loop but queues a task from any other thread, so writers on several
 * threads could overtake each other: only this loop writes. It starts on a loop of its own, which opens the first
 * connection, and moves to the loop of the connection that carries the commands ({@link ConnectionLoop}), so that
 * neither a write nor its reply crosses threads (each crossing wakes another thread; it halved the uncontended
 * throughput). The task never runs re-entered: a request made while it runs makes it run again after.
 */
final class WriterLoop {

    private final VertxInternal vertx;
    private final Runnable task;
    private volatile ContextInternal context;
    /** Guarded by this. */
    private boolean scheduled;
    /** Only touched on the writing loop. */
    private boolean running;
    private boolean runAgain;

    /**
     * @param vertx the Vert.x instance, one of whose event loops writes
     * @param task writes what is queued; runs only on the writing loop
     */
    WriterLoop(Vertx vertx, Runnable task) {
        this.vertx = (VertxInternal) vertx;
        this.task = task;
        this.context = this.vertx.createEventLoopContext();
    }

    /** Runs the task on the writing loop: at once when called there, else as soon as the loop gets to it. */
    void request() {
        if (context.nettyEventLoop().inEventLoop()) {
            run();
            return;
        }
        synchronized (this) {
            if (scheduled) {
                return;
            }
            scheduled = true;
        }
        context.runOnContext(ignored -> {
            synchronized (this) {
                scheduled = false;
            }
            run();
        });
    }

    /**
     * Moves the writing to the event loop of {@code conn}. Called on the current writing loop before the connection
     * carries any lock command: nothing was written on it but its set-up commands, which were answered, so nothing
     * written later can overtake them. A run already scheduled on the previous loop finds it no longer writes, and
     * hands over.
     */
    void moveTo(RedisConnection conn) {
        EventLoop loop = ConnectionLoop.of(conn);
        ContextInternal current = context;
        if (loop != null && loop != current.nettyEventLoop()) {
            context = vertx.createEventLoopContext(loop, current.workerPool(), current.classLoader());
        }
    }

    /** The context whose event loop writes. */
    Context context() {
        return context;
    }

    private void run() {
        if (!context.nettyEventLoop().inEventLoop()) {
            // scheduled on the loop that wrote before the writing moved
            request();
            return;
        }
        if (running) {
            runAgain = true;
            return;
        }
        running = true;
        try {
            do {
                runAgain = false;
                task.run();
            } while (runAgain);
        } finally {
            running = false;
        }
    }
}
