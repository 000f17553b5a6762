package io.quarkiverse.lock.runtime.store.mongodb;

import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.RELEASED_ID;

import java.util.List;
import java.util.function.Consumer;

import org.bson.Document;
import org.jboss.logging.Logger;

import com.mongodb.MongoServerException;
import com.mongodb.client.model.changestream.ChangeStreamDocument;

import io.quarkiverse.lock.runtime.store.ReconnectBackoff;
import io.quarkus.mongodb.reactive.ReactiveMongoCollection;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;

/**
 * The application's one change stream on the release announcements: restarted with backoff when it fails, and given
 * up (waiters then poll) when the server cannot stream changes, as a standalone MongoDB server cannot. After each
 * (re)start it reports a gap, since releases may have been missed while it was down.
 */
final class MongoReleaseWatch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(MongoReleaseWatch.class);
    /** "The $changeStream stage is only supported on replica sets". */
    private static final int NOT_A_REPLICA_SET = 40573;

    private final Vertx vertx;
    private final ReactiveMongoCollection<Document> announcements;
    private final Consumer<String> onRelease;
    private final Runnable onGap;
    private final Consumer<Boolean> onAvailability;
    private volatile boolean closed;
    private volatile Cancellable subscription;
    private final ReconnectBackoff backoff = new ReconnectBackoff();

    /**
     * @param vertx for the retry timers
     * @param announcements the collection of release announcements
     * @param onRelease told the id of each released lock document
     * @param onGap told when announcements may have been missed
     * @param onAvailability told whether announcements reach anyone (a working change stream)
     */
    MongoReleaseWatch(Vertx vertx, ReactiveMongoCollection<Document> announcements, Consumer<String> onRelease,
            Runnable onGap, Consumer<Boolean> onAvailability) {
        this.vertx = vertx;
        this.announcements = announcements;
        this.onRelease = onRelease;
        this.onGap = onGap;
        this.onAvailability = onAvailability;
    }

    void start() {
        if (closed) {
            return;
        }
        subscription = announcements
                .watch(List.of(new Document("$match", new Document("operationType", "insert"))), Document.class)
                .onSubscription().invoke(() -> {
                    onAvailability.accept(true);
                    onGap.run();
                })
                .subscribe().with(this::onChange, this::onFailure, () -> onFailure(null));
    }

    @Override
    public void close() {
        closed = true;
        onAvailability.accept(false);
        Cancellable current = subscription;
        if (current != null) {
            current.cancel();
        }
    }

    private void onChange(ChangeStreamDocument<Document> change) {
        backoff.reset();
        Document announcement = change.getFullDocument();
        if (announcement != null && announcement.getString(RELEASED_ID) != null) {
            onRelease.accept(announcement.getString(RELEASED_ID));
        }
    }

    private void onFailure(Throwable failure) {
        onAvailability.accept(false);
        if (closed) {
            return;
        }
        if (failure instanceof MongoServerException server && server.getCode() == NOT_A_REPLICA_SET) {
            LOG.infof("MongoDB cannot stream changes here (a standalone server): waiters of other instances find "
                    + "released locks by polling");
            return;
        }
        String why = failure == null ? "the stream ended" : failure.getMessage();
        LOG.debugf("Lock release announcements are down (%s); waiters poll until they are back", why);
        vertx.setTimer(backoff.next(), ignored -> start());
    }
}
