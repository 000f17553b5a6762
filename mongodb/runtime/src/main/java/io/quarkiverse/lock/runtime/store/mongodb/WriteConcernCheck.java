package io.quarkiverse.lock.runtime.store.mongodb;

import java.util.List;
import java.util.Set;

import org.bson.Document;
import org.jboss.logging.Logger;

import com.mongodb.MongoServerException;

import io.smallrye.mutiny.Uni;

/**
 * Checks a numeric write concern above 1 against the deployment, because MongoDB judges it only when a write arrives:
 * a standalone server refuses it ({@code BadValue}, nothing written), and a replica set with fewer data-bearing
 * members applies the write and then answers with a {@code writeConcernError} ({@code UnsatisfiableWriteConcern}),
 * leaving a lock granted that its caller was told failed.
 * <p>
 * The check is a write that matches no document, sent with the configured write concern: the server waits for (and
 * so judges) the write concern of a write that changed nothing too. Until a check has found the write concern
 * unsatisfiable, writes go ahead; once it has, every write fails at once, naming the property, and the readiness
 * check reports it; each readiness check checks again, so a deployment that grew is noticed without a restart.
 * {@code majority} and {@code 1} are satisfiable everywhere and never checked.
 */
final class WriteConcernCheck {

    private static final Logger LOG = Logger.getLogger(WriteConcernCheck.class);
    /** BadValue (standalone), UnknownReplWriteConcern, UnsatisfiableWriteConcern. */
    private static final Set<Integer> UNSATISFIABLE = Set.of(2, 79, 100);

    private final MongoCommands commands;
    private final Document writeConcern;
    /** The check's write: an update that matches no document of the lock collection. */
    private final Document noOp;
    private final boolean needed;
    private volatile String refusal;

    /**
     * @param commands where to send the check
     * @param settings the store's settings: the configured write concern, and the lock collection, which the check's
     *        write targets without changing it
     */
    WriteConcernCheck(MongoCommands commands, MongoLockStoreSettings settings) {
        this.commands = commands;
        this.writeConcern = settings.writeConcern();
        this.noOp = MongoCommands.updateOne(settings.collection(),
                new Document(MongoLockDocuments.ID, new Document("$in", List.of())),
                new Document("$set", new Document("x", 1)), writeConcern);
        this.needed = writeConcern.get("w") instanceof Number w && w.intValue() > 1;
    }

    /**
     * Starts a check in the background, if the write concern needs one.
     */
    void start() {
        if (needed) {
            check().subscribe().with(ignored -> {
            }, failure -> LOG.debugf("Could not check the write concern yet: %s", failure.getMessage()));
        }
    }

    /** A failure naming the property when a check found the write concern unsatisfiable, else {@code null}. */
    IllegalStateException refusal() {
        String reason = refusal;
        return reason == null ? null : new IllegalStateException(reason);
    }

    /**
     * Completes when the write concern is satisfiable or could not be judged; fails when it is unsatisfiable. Checks
     * again (when the write concern needs checks), for the readiness check.
     */
    Uni<Void> recheck() {
        if (!needed) {
            return Uni.createFrom().voidItem();
        }
        return check().flatMap(ignored -> {
            IllegalStateException failure = refusal();
            return failure == null ? Uni.createFrom().voidItem() : Uni.createFrom().failure(failure);
        });
    }

    private Uni<Void> check() {
        return commands.write(noOp)
                .invoke(ignored -> refusal = null)
                .onFailure(WriteConcernCheck::isUnsatisfiable).recoverWithItem(failure -> {
                    String reason = "quarkus.lock.mongodb.write-concern=" + writeConcern.get("w")
                            + " cannot be satisfied by this MongoDB deployment (" + failure.getMessage()
                            + "): use 'majority', or a number of members the deployment has";
                    if (refusal == null) {
                        LOG.error(reason + "; every lock operation fails until it can");
                    }
                    refusal = reason;
                    return null;
                })
                .replaceWithVoid();
    }

    private static boolean isUnsatisfiable(Throwable failure) {
        int code = failure instanceof MongoServerException server ? server.getCode()
                : failure instanceof MongoWriteFailure write ? write.code() : -1;
        return UNSATISFIABLE.contains(code);
    }
}
