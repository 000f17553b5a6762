package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Waits for a lock operation on a thread that may block, as the blocking view does. Unlike Mutiny's
 * {@code await().indefinitely()}, an interrupt cancels the operation it interrupts, so an interrupted acquisition
 * does not go on and get the lock later; and a release can be awaited through interrupts, so an interrupted thread
 * still frees its lock.
 * <p>
 * The item and the interrupt race for one outcome: whichever comes first decides what the caller is told. An
 * interrupt that wins cancels the operation, and a lock's acquisition that already emitted its grant gives it back
 * when cancelled; an undo given here covers what the operation's cancellation does not. (A {@code CompletableFuture}
 * from Mutiny cannot decide this: its subscriber takes the item and ends its subscription before completing the
 * future, so a cancel in between reaches nothing and the grant is dropped.)
 */
final class BlockingWait {

    private static final Logger LOG = Logger.getLogger(BlockingWait.class);

    private BlockingWait() {
    }

    /**
     * Waits for the operation; an interrupt cancels it.
     *
     * @param key the lock's key, for the message when this thread must not block
     * @param operation the operation
     * @param undo what undoes an item the caller was not given, because the interrupt came first, beyond what the
     *        operation's cancellation undoes itself: exactly that item's undoing, at most once; {@code null} when
     *        the cancellation is enough (a plain acquisition gives back its grant when cancelled; releasing the
     *        handle's hold again here would free whatever the handle holds by then)
     * @return its item
     * @throws CompletionException caused by {@link InterruptedException} if the thread was interrupted before the
     *         operation ended (its interrupt status is set again; an operation that ended first returns its item, with
     *         the status set); the operation's own failure otherwise
     */
    static <T> T interruptibly(String key, Uni<T> operation, Function<T, Uni<?>> undo) {
        Outcome<T> outcome = start(key, operation, undo);
        try {
            outcome.ended.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (outcome.abandon()) {
                throw new CompletionException(e);
            }
        }
        return outcome.get();
    }

    /**
     * Waits for the operation through interrupts, and sets the interrupt status again afterwards if one came.
     *
     * @param key the lock's key, for the message when this thread must not block
     * @param operation the operation, bounded in time by the store's operation timeout
     * @return its item
     */
    static <T> T uninterruptibly(String key, Uni<T> operation) {
        Outcome<T> outcome = start(key, operation, null);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    outcome.ended.await();
                    return outcome.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static <T> Outcome<T> start(String key, Uni<T> operation, Function<T, Uni<?>> undo) {
        if (!Infrastructure.canCallerThreadBeBlocked()) {
            throw new IllegalStateException("The blocking view of lock '" + key + "' was called on "
                    + Thread.currentThread().getName() + ", a thread that must not block: use the reactive lock "
                    + "(LockRegistry.obtain) there, or call it from a worker thread (@Blocking, @RunOnVirtualThread)");
        }
        Outcome<T> outcome = new Outcome<>(undo);
        operation.subscribe().withSubscriber(outcome);
        return outcome;
    }

    /** The one outcome of a blocking wait: the operation's item or failure, or the caller's abandoning it. */
    private static final class Outcome<T> implements UniSubscriber<T> {

        private static final int WAITING = 0;
        private static final int ENDED = 1;
        private static final int ABANDONED = 2;

        private final AtomicInteger state = new AtomicInteger(WAITING);
        private final CountDownLatch ended = new CountDownLatch(1);
        private final Function<T, Uni<?>> undo;
        private volatile UniSubscription subscription;
        private T item;
        private Throwable failure;

        Outcome(Function<T, Uni<?>> undo) {
            this.undo = undo;
        }

        @Override
        public void onSubscribe(UniSubscription subscription) {
            this.subscription = subscription;
            if (state.get() == ABANDONED) {
                subscription.cancel();
            }
        }

        @Override
        public void onItem(T item) {
            this.item = item;
            if (state.compareAndSet(WAITING, ENDED)) {
                signal();
            } else {
                undoAbandoned(item);
            }
        }

        @Override
        public void onFailure(Throwable failure) {
            this.failure = failure;
            if (state.compareAndSet(WAITING, ENDED)) {
                signal();
            }
        }

        /**
         * Lets the caller go on. On an event loop, only once the callbacks now running have returned: they may run under
         * the caller's context, propagated to this thread (its transaction, through context propagation), and a caller
         * that ended its transaction while this thread still took part in it would have its rollback fail, and its work
         * committed. (The caller itself is never on an event loop: it blocks.)
         */
        private void signal() {
            Context context = Vertx.currentContext();
            if (context != null && context.isEventLoopContext()) {
                context.runOnContext(ignored -> ended.countDown());
            } else {
                ended.countDown();
            }
        }

        /** @return {@code true} if the caller abandoned the operation before it ended, and cancelled it */
        boolean abandon() {
            if (!state.compareAndSet(WAITING, ABANDONED)) {
                return false;
            }
            UniSubscription current = subscription;
            if (current != null) {
                current.cancel();
            }
            return true;
        }

        T get() {
            if (failure == null) {
                return item;
            }
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failure instanceof Error error) {
                throw error;
            }
            throw new CompletionException(failure);
        }

        private void undoAbandoned(T item) {
            Uni<?> undoing = undo == null ? null : undo.apply(item);
            if (undoing != null) {
                undoing.subscribe().with(undone -> LOG.debugf("Undid %s, which an interrupted caller gave up", item),
                        failure -> LOG.debugf(failure, "Could not undo %s, which an interrupted caller gave up", item));
            }
        }
    }
}
