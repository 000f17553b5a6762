package io.quarkiverse.lock.spi;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * Runs a store's operations on one lock one after the other, in the order they were subscribed, each only once the
 * one before it has ended at the server.
 * <p>
 * For a store whose client sends concurrent commands over several pooled connections: without this, a take-back
 * could reach the server before the attempt it takes back (which would then grant the lock, or a place in line, to
 * an acquisition that is gone), or a release before the attempt that preceded it. A caller that stops waiting (the
 * operation timeout, a cancellation) does not stop its command, which the server runs anyway, so the next operation
 * waits for the command's real end, not for the caller: freeing the key at the cancellation would let a take-back
 * overtake the very attempt it undoes. Each operation must therefore end by itself (the client bounds it), or it
 * holds up its key. Operations on different keys do not wait for each other.
 */
public final class OrderedPerKey {

    private static final int WAITING = 0;
    private static final int SENT = 1;
    private static final int GIVEN_UP = 2;

    private final ConcurrentHashMap<String, CompletableFuture<Void>> lastOperation = new ConcurrentHashMap<>();

    /**
     * @param key the lock, as the store names it
     * @param operation sends the operation, once every earlier operation on that key has ended
     * @return the operation's outcome; cancelling it does not cancel the operation, nor let the next one start early
     */
    public <T> Uni<T> run(String key, Supplier<Uni<T>> operation) {
        return run(key, operation, false);
    }

    /**
     * As {@link #run}, for an operation whose late effect would hit whoever holds the lock by then (an overriding
     * release): cancelled before it was sent (its caller gave up, or its time ran out), it is never sent, and fails
     * with a {@link CancellationException}; once sent, cancelling it changes nothing, as with {@link #run}.
     *
     * @param key the lock, as the store names it
     * @param operation sends the operation, once every earlier operation on that key has ended, unless its caller gave
     *        up meanwhile
     * @return the operation's outcome
     */
    public <T> Uni<T> runUnlessGivenUp(String key, Supplier<Uni<T>> operation) {
        return run(key, operation, true);
    }

    private <T> Uni<T> run(String key, Supplier<Uni<T>> operation, boolean unlessGivenUp) {
        return Uni.createFrom().deferred(() -> {
            CompletableFuture<Void> ended = new CompletableFuture<>();
            CompletableFuture<Void> previous = lastOperation.put(key, ended);
            CompletableFuture<T> outcome = new CompletableFuture<>();
            // WAITING, then SENT or GIVEN_UP, whichever comes first: the send and the cancellation race.
            AtomicInteger state = new AtomicInteger(WAITING);
            Runnable send = () -> {
                if (!state.compareAndSet(WAITING, SENT)) {
                    end(key, ended);
                    outcome.completeExceptionally(new CancellationException("given up on before it was sent"));
                    return;
                }
                Uni<T> sent;
                try {
                    sent = operation.get();
                } catch (RuntimeException e) {
                    end(key, ended);
                    outcome.completeExceptionally(e);
                    return;
                }
                sent.subscribe().with(item -> {
                    end(key, ended);
                    outcome.complete(item);
                }, failure -> {
                    end(key, ended);
                    outcome.completeExceptionally(failure);
                });
            };
            if (previous == null) {
                send.run();
            } else {
                previous.whenComplete((ignored, failure) -> send.run());
            }
            return Uni.createFrom().<T> emitter(emitter -> {
                if (unlessGivenUp) {
                    emitter.onTermination(() -> state.compareAndSet(WAITING, GIVEN_UP));
                }
                outcome.whenComplete((item, failure) -> {
                    if (failure != null) {
                        emitter.fail(failure);
                    } else {
                        emitter.complete(item);
                    }
                });
            });
        });
    }

    private void end(String key, CompletableFuture<Void> ended) {
        lastOperation.remove(key, ended);
        ended.complete(null);
    }

    /**
     * @return how many keys have an operation running or waiting, for tests that check nothing leaks
     */
    public int busyKeys() {
        return lastOperation.size();
    }
}
