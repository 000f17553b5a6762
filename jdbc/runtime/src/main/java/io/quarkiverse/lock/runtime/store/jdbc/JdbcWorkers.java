package io.quarkiverse.lock.runtime.store.jdbc;

import java.sql.SQLTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * The store's own threads, a fixed number of them, on which every JDBC call runs: never an event loop, never a
 * caller's thread. A caller that finds every thread busy waits in line; work that did not start within the operation
 * timeout fails without running, and work whose caller cancelled it before it started never runs.
 * <p>
 * This instance's operations on one key run one after the other, in the order they were subscribed, each only once
 * the one before it has ended in the database: otherwise an acquisition's take-back, on another thread, could commit
 * before the attempt it takes back (which would then grant the lock to an acquisition that is gone). A caller that
 * stops waiting does not end the work, which the next operation on the key waits for; work whose caller stopped
 * waiting before it ran does not run, and the work after it still waits for the work before it.
 * <p>
 * Outcomes are delivered on the caller's Vert.x context, or on an event loop for a caller outside Vert.x, so no
 * code of the caller's pipeline ever runs on these threads.
 */
final class JdbcWorkers implements AutoCloseable {

    /** Work on the store's threads. */
    @FunctionalInterface
    interface Work<T> {

        /**
         * @param deadlineNanos when the operation's time runs out ({@link System#nanoTime()})
         * @return the outcome
         */
        T run(long deadlineNanos) throws Exception;
    }

    private final Vertx vertx;
    private final long timeoutNanos;
    private final ThreadPoolExecutor threads;
    private final ConcurrentHashMap<String, CompletableFuture<Void>> lastOnKey = new ConcurrentHashMap<>();

    /**
     * @param vertx the Vert.x instance outcomes are delivered on
     * @param threads how many threads, positive
     * @param operationTimeout how long an operation may wait for a thread and run
     */
    JdbcWorkers(Vertx vertx, int threads, Duration operationTimeout) {
        this.vertx = vertx;
        this.timeoutNanos = operationTimeout.toNanos();
        AtomicInteger count = new AtomicInteger();
        this.threads = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                work -> {
                    Thread thread = new Thread(work, "quarkus-lock-jdbc-" + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /**
     * @param key the lock key whose operations run one after the other
     * @param work the work
     * @return its outcome; cancelling it before the work started keeps it from running
     */
    <T> Uni<T> onKey(String key, Work<T> work) {
        return Uni.createFrom().emitter(emitter -> {
            CompletableFuture<Void> ended = new CompletableFuture<>();
            CompletableFuture<Void> previous = lastOnKey.put(key, ended);
            // work cancelled before it ran lets the next run only once the work before it ended
            CompletableFuture<Void> before = previous == null ? CompletableFuture.completedFuture(null) : previous;
            Runnable after = () -> before.whenComplete((ignored, failure) -> {
                lastOnKey.remove(key, ended);
                ended.complete(null);
            });
            Task<T> task = new Task<>(emitter, work, System.nanoTime() + timeoutNanos, callerContext(), after);
            if (previous == null) {
                submit(task);
            } else {
                previous.whenComplete((ignored, failure) -> submit(task));
            }
        });
    }

    /**
     * @param work work that needs no order with other work
     * @return its outcome; cancelling it before the work started keeps it from running
     */
    <T> Uni<T> any(Work<T> work) {
        return Uni.createFrom().emitter(emitter -> submit(new Task<>(emitter, work, System.nanoTime() + timeoutNanos,
                callerContext(), () -> {
                })));
    }

    /**
     * @return how many keys have work running or waiting, for tests that check nothing leaks
     */
    int busyKeys() {
        return lastOnKey.size();
    }

    /** Stops the threads once the work they have started ends; work still waiting fails. */
    @Override
    public void close() {
        threads.shutdown();
    }

    private void submit(Task<?> task) {
        try {
            threads.execute(task);
        } catch (RejectedExecutionException e) {
            task.fail(new IllegalStateException("The JDBC lock store is closed"));
        }
    }

    private Context callerContext() {
        Context current = Vertx.currentContext();
        return current != null ? current : vertx.getOrCreateContext();
    }

    /** One piece of work, run once on a thread of the store unless its caller left or its time ran out first. */
    private static final class Task<T> implements Runnable {

        private final UniEmitter<? super T> emitter;
        private final Work<T> work;
        private final long deadlineNanos;
        private final Context context;
        private final Runnable after;
        private final AtomicBoolean done = new AtomicBoolean();

        Task(UniEmitter<? super T> emitter, Work<T> work, long deadlineNanos, Context context, Runnable after) {
            this.emitter = emitter;
            this.work = work;
            this.deadlineNanos = deadlineNanos;
            this.context = context;
            this.after = after;
            emitter.onTermination(() -> {
                if (done.compareAndSet(false, true)) {
                    after.run();
                }
            });
        }

        @Override
        public void run() {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            try {
                if (System.nanoTime() >= deadlineNanos) {
                    deliver(null, new SQLTimeoutException("No thread of the JDBC lock store was free "
                            + "within quarkus.lock.operation-timeout (raise quarkus.lock.jdbc.threads)"));
                    return;
                }
                T outcome;
                try {
                    outcome = work.run(deadlineNanos);
                } catch (Throwable failure) {
                    deliver(null, failure);
                    return;
                }
                deliver(outcome, null);
            } finally {
                after.run();
            }
        }

        void fail(Throwable failure) {
            if (done.compareAndSet(false, true)) {
                after.run();
                deliver(null, failure);
            }
        }

        private void deliver(T outcome, Throwable failure) {
            context.runOnContext(ignored -> {
                if (failure != null) {
                    emitter.fail(failure);
                } else {
                    emitter.complete(outcome);
                }
            });
        }
    }
}
