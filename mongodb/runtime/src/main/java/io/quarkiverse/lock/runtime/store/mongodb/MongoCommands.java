package io.quarkiverse.lock.runtime.store.mongodb;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.bson.Document;

import com.mongodb.ReadPreference;
import com.mongodb.reactivestreams.client.MongoDatabase;

import io.quarkus.mongodb.reactive.ReactiveMongoDatabase;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import mutiny.zero.flow.adapters.AdaptersToFlow;

/**
 * Sends the store's commands to the primary, each bounded by the driver's client-side operation timeout
 * ({@code timeoutMS}, set to {@code quarkus.lock.operation-timeout}), and turns the errors MongoDB reports inside a
 * successful reply into failures.
 * <p>
 * The bound is the driver's, not only the caller's: a command on a connection that stopped answering (a half-open
 * TCP connection, a server that hangs) fails when its time is up and the driver closes that connection, so the next
 * operation on the same lock, which waits for this one to end ({@link io.quarkiverse.lock.spi.OrderedPerKey}), does
 * not wait for ever. Outcomes resume on the Vert.x context the command was sent from, as the Quarkus client's own
 * methods do.
 */
final class MongoCommands {

    private final MongoDatabase bounded;

    /**
     * @param database the database of the lock collection
     * @param timeout how long one command may take before the driver gives up on it and its connection
     */
    MongoCommands(ReactiveMongoDatabase database, Duration timeout) {
        this.bounded = database.unwrap().withTimeout(Math.max(1, timeout.toMillis()), TimeUnit.MILLISECONDS);
    }

    /**
     * @param command a write command carrying its write concern
     * @return the reply; fails with {@link MongoWriteFailure} when the reply reports a write error or a write concern
     *         error, and with the driver's error otherwise
     */
    Uni<Document> write(Document command) {
        return send(command).map(MongoCommands::checked);
    }

    /**
     * @param command a command that does not write
     * @return the reply, or the driver's error
     */
    Uni<Document> read(Document command) {
        return send(command);
    }

    /**
     * @param collection the collection
     * @param query which document
     * @param update how to change it
     * @param writeConcern the write concern
     * @param fields the fields of the document to return
     * @return a {@code findAndModify} command that returns the document as it was (add {@code new: true} for it as
     *         it becomes)
     */
    static Document findAndModify(String collection, Document query, Document update, Document writeConcern,
            String... fields) {
        Document projection = new Document();
        for (String field : fields) {
            projection.append(field, 1);
        }
        return new Document("findAndModify", collection)
                .append("query", query)
                .append("update", update)
                .append("fields", projection)
                .append("writeConcern", writeConcern);
    }

    /**
     * @param collection the collection
     * @param query which document
     * @param update how to change it
     * @param writeConcern the write concern
     * @return an {@code update} command of one statement, without upsert
     */
    static Document updateOne(String collection, Document query, Document update, Document writeConcern) {
        return new Document("update", collection)
                .append("updates", List.of(new Document("q", query).append("u", update)))
                .append("writeConcern", writeConcern);
    }

    /**
     * @param collection the collection
     * @param query which document
     * @param update how to change it, or what to insert when {@code query} matches nothing
     * @param writeConcern the write concern
     * @return an {@code update} command of one upsert statement
     */
    static Document upsertOne(String collection, Document query, Document update, Document writeConcern) {
        return new Document("update", collection)
                .append("updates", List.of(new Document("q", query).append("u", update).append("upsert", true)))
                .append("writeConcern", writeConcern);
    }

    private Uni<Document> send(Document command) {
        Context context = Vertx.currentContext();
        Uni<Document> reply = Uni.createFrom()
                .publisher(AdaptersToFlow.publisher(bounded.runCommand(command, ReadPreference.primary())));
        return context == null ? reply : reply.emitOn(task -> context.runOnContext(ignored -> task.run()));
    }

    private static Document checked(Document reply) {
        List<Document> writeErrors = reply.getList("writeErrors", Document.class);
        if (writeErrors != null && !writeErrors.isEmpty()) {
            Document error = writeErrors.get(0);
            throw MongoWriteFailure.writeError(error.getInteger("code", -1), error.getString("errmsg"));
        }
        Document concernError = reply.get("writeConcernError", Document.class);
        if (concernError != null) {
            throw MongoWriteFailure.concernError(concernError.getInteger("code", -1),
                    concernError.getString("errmsg"));
        }
        return reply;
    }
}
