package io.quarkiverse.lock.runtime.leadership;

import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.leadership.LeadershipChange;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.subscription.BackPressureStrategy;
import io.smallrye.mutiny.subscription.MultiEmitter;

/**
 * Delivers the changes of one group, one at a time and in order, on a thread of their own: to the sink (the CDI
 * events), then to the subscribers of the stream. The term machine only queues a change here and never waits for its
 * delivery, so an observer that blocks delays the later changes of its group, never the end of a term. A change may
 * wait for something before its delivery (the end of a term, for its guarded work to be told), and the later changes
 * wait with it.
 * <p>
 * Whatever a delivery throws, {@link Error}s included, is logged, and the next change is delivered all the same: the
 * drain that was under way gives its turn back in a {@code finally} block and hands what is left to a new drain.
 */
final class ChangeDispatcher {

    private static final Logger LOG = Logger.getLogger(ChangeDispatcher.class);

    private final Executor executor;
    private final Consumer<LeadershipChange> sink;
    private final Set<MultiEmitter<? super LeadershipChange>> subscribers = ConcurrentHashMap.newKeySet();
    /** Guarded by this. */
    private final ArrayDeque<Queued> queue = new ArrayDeque<>();
    /** Guarded by this: a drain is under way or handed to the executor. */
    private boolean draining;

    /**
     * @param executor runs the drains; it must not run them on the caller's thread
     * @param sink told of each change first (the CDI events); what it throws is logged
     */
    ChangeDispatcher(Executor executor, Consumer<LeadershipChange> sink) {
        this.executor = executor;
        this.sink = sink;
    }

    /** Queues a change for delivery; returns at once. */
    void dispatch(LeadershipChange change) {
        dispatch(change, CompletableFuture.completedFuture(null));
    }

    /** Queues a change for delivery once {@code after} completed (however it does); returns at once. */
    void dispatch(LeadershipChange change, CompletableFuture<?> after) {
        synchronized (this) {
            queue.add(new Queued(change, after));
            if (draining) {
                return;
            }
            draining = true;
        }
        startDrain();
    }

    /** @return the hot stream of the changes dispatched from now on */
    Multi<LeadershipChange> stream() {
        return Multi.createFrom().emitter(emitter -> {
            subscribers.add(emitter);
            emitter.onTermination(() -> subscribers.remove(emitter));
        }, BackPressureStrategy.BUFFER);
    }

    /** @return {@code true} once every change queued so far was delivered */
    synchronized boolean idle() {
        return !draining;
    }

    private void startDrain() {
        try {
            executor.execute(this::drain);
        } catch (RejectedExecutionException stopped) {
            synchronized (this) {
                LOG.debugf("%d leadership changes not delivered: the application stopped", queue.size());
                queue.clear();
                draining = false;
            }
        }
    }

    private void drain() {
        boolean emptied = false;
        try {
            while (true) {
                Queued next;
                synchronized (this) {
                    next = queue.poll();
                    if (next == null) {
                        draining = false;
                        emptied = true;
                        return;
                    }
                }
                next.after.handle((ignored, failure) -> null).join();
                deliver(next.change);
            }
        } finally {
            if (!emptied) {
                // Something escaped deliver() (it catches every Throwable, so only its logging could): go on elsewhere.
                boolean more;
                synchronized (this) {
                    more = !queue.isEmpty();
                    draining = more;
                }
                if (more) {
                    startDrain();
                }
            }
        }
    }

    private void deliver(LeadershipChange change) {
        try {
            sink.accept(change);
        } catch (Throwable e) {
            LOG.errorf(e, "An observer of %s failed; the next observers and changes are still delivered", change);
        }
        for (MultiEmitter<? super LeadershipChange> subscriber : subscribers) {
            try {
                subscriber.emit(change);
            } catch (Throwable e) {
                LOG.errorf(e, "A subscriber to the leadership changes failed on %s", change);
            }
        }
    }

    /** A change, and what its delivery waits for. */
    private record Queued(LeadershipChange change, CompletableFuture<?> after) {
    }
}
