package io.quarkiverse.lock.runtime.store.mongodb;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import io.smallrye.mutiny.Uni;

/**
 * Runs this instance's operations on one lock document one after the other, in the order they were subscribed.
 * <p>
 * The MongoDB client sends concurrent commands over several pooled connections, so without this a waiter's "leave
 * the line" could reach the server before the "keep my place" of its last attempt (and put it back in line for
 * good), or after a release and an attempt that followed it in this instance. Operations on different documents do
 * not wait for each other; an instance has one polling waiter per key, so the wait is short.
 */
final class OrderedPerKey {

    private final ConcurrentHashMap<String, CompletableFuture<Void>> lastOperation = new ConcurrentHashMap<>();

    /**
     * @param id the lock document's id
     * @param operation the operation, started once every earlier operation on that document has ended
     * @return the operation's outcome
     */
    <T> Uni<T> run(String id, Supplier<Uni<T>> operation) {
        return Uni.createFrom().deferred(() -> {
            CompletableFuture<Void> ended = new CompletableFuture<>();
            CompletableFuture<Void> previous = lastOperation.put(id, ended);
            Uni<Void> turn = previous == null ? Uni.createFrom().voidItem()
                    : Uni.createFrom().completionStage(previous);
            return turn.flatMap(ignored -> operation.get()).onTermination().invoke(() -> {
                ended.complete(null);
                lastOperation.remove(id, ended);
            });
        });
    }
}
