package io.quarkiverse.lock.runtime.leadership;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.leadership.NotLeaderException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * Runs work only while this instance leads a group: checked at subscription, cancelled when the term ends. The end of
 * the term is watched before the work is subscribed to, as work may run at subscription (a supplier, an iterable, the
 * body of a {@code @Leading} method), and no item produced after the belief ended is delivered.
 */
final class WhileLeading {

    private static final Cancellable CANCELLED = () -> {
    };

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
            AtomicReference<Cancellable> running = new AtomicReference<>();
            Runnable unwatch = term.whenEnded(cause -> {
                cancel(running);
                emitter.fail(new NotLeaderException(group.name(), what, term.token(), cause));
            });
            emitter.onTermination(() -> {
                unwatch.run();
                cancel(running);
            });
            if (term.endedBy() != null) {
                return;
            }
            Cancellable call = work.subscribe().with(item -> {
                LeadershipEnded.Cause over = term.overBy();
                if (over == null) {
                    emitter.complete(item);
                } else {
                    emitter.fail(new NotLeaderException(group.name(), what, term.token(), over));
                }
            }, emitter::fail);
            if (!running.compareAndSet(null, call)) {
                call.cancel();
            }
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
            Multi<T> guarded = work.onItem().invoke(item -> {
                LeadershipEnded.Cause over = term.overBy();
                if (over != null) {
                    throw new NotLeaderException(group.name(), what, term.token(), over);
                }
            }).onTermination().invoke(() -> {
                unwatch.run();
                stop.complete(null);
            });
            // The end first: a merge subscribes to its streams in order, and a work emitting at subscription would
            // keep it from subscribing to the end until the work is done.
            return Multi.createBy().merging().streams(ended, guarded);
        });
    }

    private static void cancel(AtomicReference<Cancellable> running) {
        Cancellable call = running.getAndSet(CANCELLED);
        if (call != null) {
            call.cancel();
        }
    }

    private static void requireWork(Object work) {
        if (work == null) {
            throw new IllegalArgumentException("work must not be null");
        }
    }
}
