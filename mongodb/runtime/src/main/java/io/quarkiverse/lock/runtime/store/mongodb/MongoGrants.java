package io.quarkiverse.lock.runtime.store.mongodb;

import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.LINE;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.TOKEN;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import org.bson.Document;
import org.jboss.logging.Logger;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoServerException;

import io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.Grant;
import io.quarkiverse.lock.spi.AcquireResult;
import io.smallrye.mutiny.Uni;

/**
 * The commands that grant a lock, and the one that takes a grant back when its caller cannot know it was made.
 * <p>
 * An attempt is a {@code findAndModify} without upsert whose filter ({@link MongoLockDocuments#acquirableBy}) matches
 * only a lock this owner may take now, by the server's clock ({@code $expr} and {@code $$NOW}, which MongoDB allows
 * in a query only when the command does not upsert). When it matches nothing, either the lock is not free for this
 * owner or its document does not exist; a second command tells which: an upsert whose filter matches no existing
 * lock document ({@link MongoLockDocuments#absent}) inserts a new, granted lock, or fails with a duplicate key, the
 * answer "taken". Each command is atomic, and the fencing counter, kept in the document, rises by one at every grant.
 * <p>
 * Each grant command writes a number unique in this instance ({@code grant}), which rises with each one. When a grant
 * command fails in a way that leaves its outcome unknown (no reply, a reply after the operation timeout, a
 * {@code writeConcernError} after the write), the lock is released again if, and only if, that very command granted
 * it; then the failure goes on to the caller. No lock stays held by an acquisition its caller saw fail, and a hold the
 * same owner got from another command is never touched.
 * <p>
 * A command that got no answer may also reach the server later than everything sent after it (its bytes held on the
 * way), so before the release this instance raises its entry in the lock document's {@code takenBackUpTo} to its last
 * grant number ({@link #refuseLateGrants}), and no grant's filter matches a command numbered up to it: the late
 * command grants nothing, while this instance's later commands, numbered above it, still can. Until the record is
 * written, the acquisition stays unsettled here, and its take-back writes the record first. Only acquisitions whose
 * grant command got no answer are recorded: one the server answered, even with an error, ran already and cannot run
 * again (the store sends {@code runCommand}, which the driver never retries). So the fast path sends nothing more, and
 * each instance has one entry however many of its grants got no answer, which no other instance's failures can push
 * out.
 */
final class MongoGrants {

    private static final Logger LOG = Logger.getLogger(MongoGrants.class);

    private final MongoCommands commands;
    private final MongoLockStoreSettings settings;
    private final Consumer<String> announceRelease;
    /**
     * This instance's id in the lock documents' {@code takenBackUpTo}: random, and a field name that no path reads as
     * an array index (it starts with a letter).
     */
    private final String instance = "i" + UUID.randomUUID().toString().replace("-", "");
    private final AtomicLong grants = new AtomicLong();
    /** Acquisitions whose grant command failed, not recorded as taken back yet. */
    private final Set<Acquisition> unsettled = ConcurrentHashMap.newKeySet();

    /** One acquisition of one lock. */
    private record Acquisition(String id, String owner) {
    }

    /**
     * @param commands where to send the commands
     * @param settings the store's settings: the lock collection, and the write concern of grants and their
     *        take-backs
     * @param announceRelease told the id of a lock that a take-back released while someone waited
     */
    MongoGrants(MongoCommands commands, MongoLockStoreSettings settings, Consumer<String> announceRelease) {
        this.commands = commands;
        this.settings = settings;
        this.announceRelease = announceRelease;
    }

    /** @return this instance's id in the lock documents' {@code takenBackUpTo} */
    String instance() {
        return instance;
    }

    /** Acquired with the new token, or held by another owner (remaining lease unknown). */
    Uni<AcquireResult> attempt(String id, String owner, long leaseMillis) {
        return ifFree(id, owner, leaseMillis)
                .flatMap(result -> result.acquired() ? Uni.createFrom().item(result)
                        : create(id, owner, leaseMillis));
    }

    /** Acquired with the new token if the lock was free for {@code owner}, else held by another owner. */
    Uni<AcquireResult> ifFree(String id, String owner, long leaseMillis) {
        return grant(grant -> MongoLockDocuments.acquirableBy(id, owner, grant), false, id, owner, leaseMillis);
    }

    /** Acquired with the first token if there was no lock document, else held by another owner. */
    Uni<AcquireResult> create(String id, String owner, long leaseMillis) {
        return grant(grant -> MongoLockDocuments.absent(id, grant), true, id, owner, leaseMillis)
                .onFailure(MongoGrants::isDuplicateKey).recoverWithItem(() -> AcquireResult.heldByAnother(-1));
    }

    /**
     * @param id the lock document's id
     * @param owner the new holder, whoever holds the lock now
     * @param leaseMillis the lease
     * @param sendBy the {@link System#nanoTime()} after which no command of the take-over may be sent: its caller is
     *        told by then that it failed, and a take-over sent later would take a lock granted since from a holder
     *        that keeps working as if it held it
     * @return acquired with the next token; fails with a duplicate key for an owner taken back (a take-over that
     *         arrives after its take-back), or when a concurrent creation made the first command fail after
     *         {@code sendBy}, so that the second is not sent
     */
    Uni<AcquireResult> takeOver(String id, String owner, long leaseMillis, long sendBy) {
        // The filter is not an equality on _id alone, so the server does not retry the insert of a concurrent creation.
        Supplier<Uni<AcquireResult>> command = () -> grant(grant -> MongoLockDocuments.notTakenBack(id, grant), true,
                id, owner, leaseMillis);
        return command.get().onFailure(MongoGrants::isDuplicateKey).recoverWithUni(
                failure -> System.nanoTime() - sendBy < 0 ? command.get() : Uni.createFrom().failure(failure));
    }

    private Uni<AcquireResult> grant(Function<Grant, Document> filter, boolean upsert, String id, String owner,
            long leaseMillis) {
        Grant grant = new Grant(instance, grants.incrementAndGet());
        Document command = MongoCommands.findAndModify(settings.collection(), filter.apply(grant),
                MongoLockDocuments.acquisition(owner, grant, leaseMillis), settings.writeConcern(), TOKEN)
                .append("new", true);
        if (upsert) {
            command.append("upsert", true);
        }
        return commands.write(command)
                .map(reply -> {
                    Document granted = reply.get("value", Document.class);
                    return granted == null ? AcquireResult.heldByAnother(-1)
                            : AcquireResult.acquired(((Number) granted.get(TOKEN)).longValue());
                })
                .onFailure(failure -> !isDuplicateKey(failure)).call(failure -> {
                    if (!answered(failure)) {
                        unsettled.add(new Acquisition(id, owner));
                    }
                    return refuseLateGrants(id, owner)
                            .onFailure().recoverWithUni(recording -> {
                                LOG.debugf("Could not record the take-back of a grant of %s whose reply failed: %s",
                                        id, recording.getMessage());
                                return Uni.createFrom().voidItem();
                            })
                            .chain(() -> undo(id, owner, grant));
                });
    }

    /**
     * Raises this instance's entry in the lock document's {@code takenBackUpTo} to its last grant number (creating the
     * document if need be), so that a grant command of this acquisition that reaches the server later grants nothing,
     * if one of its grant commands got no answer and that is not recorded yet; else does nothing, sending nothing.
     *
     * @return completes once recorded (or when nothing needs recording); fails with the driver's error, and the
     *         acquisition stays unsettled
     */
    Uni<Void> refuseLateGrants(String id, String owner) {
        Acquisition acquisition = new Acquisition(id, owner);
        if (!unsettled.contains(acquisition)) {
            return Uni.createFrom().voidItem();
        }
        Document record = MongoCommands.upsertOne(settings.collection(), new Document(MongoLockDocuments.ID, id),
                MongoLockDocuments.takeBackRecorded(instance, grants.get()), settings.writeConcern());
        // A duplicate key: a lock document was created meanwhile; the second try updates it.
        return onceMoreIfDuplicateKey(() -> commands.write(record))
                .onFailure(MongoGrants::isDuplicateKey).recoverWithItem(() -> null)
                .invoke(() -> unsettled.remove(acquisition))
                .replaceWithVoid();
    }

    private static <T> Uni<T> onceMoreIfDuplicateKey(Supplier<Uni<T>> command) {
        return command.get().onFailure(MongoGrants::isDuplicateKey).recoverWithUni(failure -> command.get());
    }

    /**
     * Releases the lock if the grant command numbered {@code grant} gave it to {@code owner}, and nothing granted it
     * since. Its own failure is logged: the original failure is what the caller needs.
     */
    private Uni<Void> undo(String id, String owner, Grant grant) {
        Document command = MongoCommands.findAndModify(settings.collection(),
                MongoLockDocuments.grantedBy(id, owner, grant), MongoLockDocuments.releaseAndLeave(owner),
                settings.writeConcern(), LINE).append("new", true);
        return commands.write(command)
                .invoke(reply -> {
                    Document released = reply.get("value", Document.class);
                    if (released != null) {
                        LOG.debugf("Took back the grant of %s whose reply failed", id);
                        if (released.getList(LINE, Document.class) != null
                                && !released.getList(LINE, Document.class).isEmpty()) {
                            announceRelease.accept(id);
                        }
                    }
                })
                .replaceWithVoid()
                .onFailure().recoverWithUni(failure -> {
                    LOG.debugf("Could not take back a grant of %s whose reply failed: %s", id, failure.getMessage());
                    return Uni.createFrom().voidItem();
                });
    }

    /**
     * @return {@code true} if the server answered the command (an error reply, a write error, a write concern error):
     *         it ran, and can never run later; {@code false} if no answer came (a timeout, a broken connection), so
     *         that the command may still be on its way
     */
    static boolean answered(Throwable failure) {
        return failure instanceof MongoServerException || failure instanceof MongoWriteFailure;
    }

    /** {@code true} if it is a duplicate key error: the command wrote nothing. */
    static boolean isDuplicateKey(Throwable failure) {
        int code = failure instanceof MongoServerException server ? server.getCode()
                : failure instanceof MongoWriteFailure write ? write.code() : -1;
        return ErrorCategory.fromErrorCode(code) == ErrorCategory.DUPLICATE_KEY;
    }
}
