package io.quarkiverse.lock.runtime.registry;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Waits for a lock operation on a thread that may block, as the blocking view does. Unlike Mutiny's
 * {@code await().indefinitely()}, an interrupt cancels the operation it interrupts, so an interrupted acquisition
 * does not go on and get the lock later; and a release can be awaited through interrupts, so an interrupted thread
 * still frees its lock.
 */
final class BlockingWait {

    private BlockingWait() {
    }

    /**
     * Waits for the operation; an interrupt cancels it.
     *
     * @param operation the operation
     * @return its item
     * @throws CompletionException caused by {@link InterruptedException} if the thread was interrupted before the
     *         operation ended (its interrupt status is set again; an operation that ended at that moment returns its
     *         item, with the status set); the operation's own failure otherwise, as thrown by Mutiny's await
     */
    static <T> T interruptibly(Uni<T> operation) {
        CompletableFuture<T> result = start(operation);
        try {
            return result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (result.cancel(false)) {
                throw new CompletionException(e);
            }
            return result.join();
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        }
    }

    /**
     * Waits for the operation through interrupts, and sets the interrupt status again afterwards if one came.
     *
     * @param operation the operation, bounded in time by the store's operation timeout
     * @return its item
     */
    static <T> T uninterruptibly(Uni<T> operation) {
        CompletableFuture<T> result = start(operation);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return result.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw rethrow(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static <T> CompletableFuture<T> start(Uni<T> operation) {
        if (!Infrastructure.canCallerThreadBeBlocked()) {
            throw new IllegalStateException("The current thread cannot be blocked: " + Thread.currentThread().getName());
        }
        return operation.subscribeAsCompletionStage();
    }

    private static RuntimeException rethrow(Throwable failure) {
        if (failure instanceof RuntimeException runtime) {
            return runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        return new CompletionException(failure);
    }
}
