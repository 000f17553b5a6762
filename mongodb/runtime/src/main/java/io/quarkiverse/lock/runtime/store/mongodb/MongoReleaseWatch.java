package io.quarkiverse.lock.runtime.store.mongodb;

import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.bson.BsonValue;
import org.bson.Document;
import org.jboss.logging.Logger;

import com.mongodb.MongoServerException;
import com.mongodb.client.model.changestream.ChangeStreamDocument;

import io.quarkiverse.lock.spi.ReconnectBackoff;
import io.quarkus.mongodb.reactive.ReactiveMongoCollection;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;

/**
 * The application's one change stream on the release announcements ({@link MongoReleaseAnnouncements}).
 * <p>
 * A stream counts as open only once it delivered a change: after each (re)start the watch writes the probe document
 * until its own stream (or any instance's write) shows up. Only then does it say that announcements reach
 * listeners, and report a gap, since releases may have been missed while it was down; a stream that the server
 * refuses never wakes the waiters. A stream that fails is restarted with backoff; one that the server refuses for good
 * (a standalone server cannot stream changes; a user without the privilege may not) is given up, with one log line,
 * and waiters poll.
 */
final class MongoReleaseWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(MongoReleaseWatch.class);
    /** "The $changeStream stage is only supported on replica sets". */
    private static final int NOT_A_REPLICA_SET = 40573;
    /** Not a replica set; Unauthorized (the user may not watch the collection). */
    private static final Set<Integer> REFUSED_FOR_GOOD = Set.of(NOT_A_REPLICA_SET, 13);
    private static final long FIRST_PROBE_MILLIS = 100;
    private static final long LAST_PROBE_MILLIS = 10_000;

    private final Vertx vertx;
    private final ReactiveMongoCollection<Document> collection;
    private final MongoReleaseAnnouncements announcements;
    private final Consumer<String> onRelease;
    private final Runnable onGap;
    private final Consumer<Boolean> onAvailability;
    private final ReconnectBackoff backoff = new ReconnectBackoff();
    /** Which start of the stream is current; callbacks of an earlier one are ignored. */
    private final AtomicLong generation = new AtomicLong();
    private volatile boolean closed;
    private volatile boolean open;
    private volatile Cancellable subscription;

    /**
     * @param vertx for the retry and probe timers
     * @param collection the announcements collection, to watch
     * @param announcements the announcements, to write the probe
     * @param onRelease told the id of each released lock document
     * @param onGap told when announcements may have been missed
     * @param onAvailability told whether announcements reach anyone (an open change stream)
     */
    MongoReleaseWatch(Vertx vertx, ReactiveMongoCollection<Document> collection,
            MongoReleaseAnnouncements announcements, Consumer<String> onRelease, Runnable onGap,
            Consumer<Boolean> onAvailability) {
        this.vertx = vertx;
        this.collection = collection;
        this.announcements = announcements;
        this.onRelease = onRelease;
        this.onGap = onGap;
        this.onAvailability = onAvailability;
    }

    void start() {
        if (closed) {
            return;
        }
        long current = generation.incrementAndGet();
        open = false;
        subscription = collection
                .watch(List.of(new Document("$match", new Document("operationType",
                        new Document("$in", List.of("insert", "update", "replace"))))), Document.class)
                .subscribe().with(change -> onChange(current, change), failure -> onFailure(current, failure),
                        () -> onFailure(current, null));
        probe(current, FIRST_PROBE_MILLIS);
    }

    @Override
    public void close() {
        closed = true;
        open = false;
        onAvailability.accept(false);
        Cancellable current = subscription;
        if (current != null) {
            current.cancel();
        }
    }

    private void probe(long current, long delayMillis) {
        vertx.setTimer(delayMillis, ignored -> {
            if (closed || open || generation.get() != current) {
                return;
            }
            announcements.probe().subscribe().with(
                    written -> probe(current, Math.min(delayMillis * 2, LAST_PROBE_MILLIS)),
                    failure -> probe(current, Math.min(delayMillis * 2, LAST_PROBE_MILLIS)));
        });
    }

    private void onChange(long current, ChangeStreamDocument<Document> change) {
        if (generation.get() != current) {
            return;
        }
        if (!open) {
            open = true;
            backoff.reset();
            onAvailability.accept(true);
            onGap.run();
        }
        BsonValue id = change.getDocumentKey() == null ? null : change.getDocumentKey().get(MongoLockDocuments.ID);
        if (id != null && id.isString()) {
            onRelease.accept(id.asString().getValue());
        }
    }

    private void onFailure(long current, Throwable failure) {
        // ends this start: its probes stop, and late callbacks of its stream are ignored
        if (!generation.compareAndSet(current, current + 1)) {
            return;
        }
        open = false;
        onAvailability.accept(false);
        if (closed) {
            return;
        }
        if (failure instanceof MongoServerException server && REFUSED_FOR_GOOD.contains(server.getCode())) {
            LOG.logf(server.getCode() == NOT_A_REPLICA_SET ? Logger.Level.INFO : Logger.Level.WARN,
                    "MongoDB refuses a change stream on %s (%s): waiters of other instances find released locks by "
                            + "polling, at most 64 ms apart",
                    announcements.collection(), server.getMessage());
            return;
        }
        String why = failure == null ? "the stream ended" : failure.getMessage();
        LOG.debugf("Lock release announcements are down (%s); waiters poll until they are back", why);
        vertx.setTimer(backoff.next(), ignored -> start());
    }
}
