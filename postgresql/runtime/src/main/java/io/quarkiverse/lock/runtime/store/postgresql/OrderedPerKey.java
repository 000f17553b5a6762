package io.quarkiverse.lock.runtime.store.postgresql;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * Runs this instance's statements on one lock row one after the other, in the order they were subscribed, each only
 * once the one before it has ended in the database.
 * <p>
 * The pool sends concurrent statements over several connections, so without this an acquisition's take-back could
 * reach the database before the attempt it takes back (which would then grant the lock, or a place in line, to an
 * acquisition that is gone), or a release before the attempt that preceded it in this instance. A caller that stops
 * waiting (the operation timeout, a cancellation) does not end its statement, which PostgreSQL runs anyway: the next
 * statement on the row waits for the real outcome, not for the caller. Statements on different rows do not wait for
 * each other; an instance has one polling waiter per key, so the wait is short.
 */
final class OrderedPerKey {

    private final ConcurrentHashMap<String, CompletableFuture<Void>> lastStatement = new ConcurrentHashMap<>();

    /**
     * @param id the lock row's key, as text
     * @param statement sends the statement, once every earlier statement on that row has ended
     * @return the statement's outcome; cancelling it does not cancel the statement
     */
    <T> Uni<T> run(String id, Supplier<Uni<T>> statement) {
        return Uni.createFrom().deferred(() -> {
            CompletableFuture<Void> ended = new CompletableFuture<>();
            CompletableFuture<Void> previous = lastStatement.put(id, ended);
            CompletableFuture<T> outcome = new CompletableFuture<>();
            Runnable send = () -> {
                Uni<T> sent;
                try {
                    sent = statement.get();
                } catch (RuntimeException e) {
                    end(id, ended);
                    outcome.completeExceptionally(e);
                    return;
                }
                sent.subscribe().with(item -> {
                    end(id, ended);
                    outcome.complete(item);
                }, failure -> {
                    end(id, ended);
                    outcome.completeExceptionally(failure);
                });
            };
            if (previous == null) {
                send.run();
            } else {
                previous.whenComplete((ignored, failure) -> send.run());
            }
            return Uni.createFrom().<T> emitter(emitter -> outcome.whenComplete((item, failure) -> {
                if (failure != null) {
                    emitter.fail(failure);
                } else {
                    emitter.complete(item);
                }
            }));
        });
    }

    private void end(String id, CompletableFuture<Void> ended) {
        lastStatement.remove(id, ended);
        ended.complete(null);
    }

    /**
     * @return how many rows have a statement running or waiting, for tests that check nothing leaks
     */
    int busyRows() {
        return lastStatement.size();
    }
}
