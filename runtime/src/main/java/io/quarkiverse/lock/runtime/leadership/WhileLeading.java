package io.quarkiverse.lock.runtime.leadership;

import java.util.concurrent.CompletableFuture;

import io.quarkiverse.lock.leadership.NotLeaderException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * Runs work only while this instance leads a group: checked at subscription, cancelled when the term ends.
 */
final class WhileLeading {

    private WhileLeading() {
    }

    /**
     * @param group the group
     * @param what the work as messages name it
     * @param work the work
     * @param skips whether the work completes with {@code null}, rather than failing, when this instance does not lead
     *        at subscription
     * @return the work's item; fails with {@link NotLeaderException} when this instance does not lead at subscription
     *         (unless it skips) or its term ends first
     */
    static <T> Uni<T> uni(GroupMember group, String what, Uni<T> work, boolean skips) {
        requireWork(work);
        return Uni.createFrom().emitter(emitter -> {
            Term term = group.believedTerm();
            if (term == null) {
                if (skips) {
                    emitter.complete(null);
                } else {
                    emitter.fail(new NotLeaderException(group.name(), what));
                }
                return;
            }
            Cancellable running = work.subscribe().with(emitter::complete, emitter::fail);
            Runnable unwatch = term.whenEnded(cause -> {
                running.cancel();
                emitter.fail(new NotLeaderException(group.name(), what, term.token(), cause));
            });
            emitter.onTermination(() -> {
                unwatch.run();
                running.cancel();
            });
        });
    }

    /** As {@link #uni}, for the items of a {@code Multi}; one that skips completes empty. */
    static <T> Multi<T> multi(GroupMember group, String what, Multi<T> work, boolean skips) {
        requireWork(work);
        return Multi.createFrom().deferred(() -> {
            Term term = group.believedTerm();
            if (term == null) {
                return skips ? Multi.createFrom().empty()
                        : Multi.createFrom().failure(new NotLeaderException(group.name(), what));
            }
            CompletableFuture<Void> stop = new CompletableFuture<>();
            Runnable unwatch = term.whenEnded(cause -> stop.completeExceptionally(
                    new NotLeaderException(group.name(), what, term.token(), cause)));
            Multi<T> ended = Multi.createFrom().completionStage(stop).onItem()
                    .transformToMultiAndConcatenate(ignored -> Multi.createFrom().empty());
            return Multi.createBy().merging().streams(work.onTermination().invoke(() -> {
                unwatch.run();
                stop.complete(null);
            }), ended);
        });
    }

    private static void requireWork(Object work) {
        if (work == null) {
            throw new IllegalArgumentException("work must not be null");
        }
    }
}
