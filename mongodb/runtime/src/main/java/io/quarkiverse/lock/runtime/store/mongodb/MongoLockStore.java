package io.quarkiverse.lock.runtime.store.mongodb;

import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.ANNOUNCED_AT;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.ANNOUNCEMENT_TTL_INDEX;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.ID;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.LEASE_MILLIS;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.LEASE_STARTED_AT;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.LINE;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.OWNER;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.OWNER_INDEX;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.PLACE_MILLIS;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.RELEASED_ID;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.SEEN_AT;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.TOKEN;

import java.util.Date;
import java.util.List;

import org.bson.Document;
import org.jboss.logging.Logger;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoServerException;
import com.mongodb.ReadPreference;

import io.quarkiverse.lock.runtime.store.AcquireResult;
import io.quarkiverse.lock.runtime.store.LockStore;
import io.quarkiverse.lock.runtime.store.ReleaseListener;
import io.quarkus.mongodb.reactive.ReactiveMongoDatabase;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * A store on MongoDB: one document per lock key (shape in {@link MongoLockDocuments}), each operation one atomic
 * command on that document, sent with the configured write concern and read from the primary.
 * <p>
 * An acquisition is a {@code findAndModify} with upsert whose filter matches only a lock this owner may take: when
 * it may not, the upsert tries to insert a second document with the same {@code _id}, and the duplicate-key error that
 * follows is the answer "not yours". A release and a renewal are updates conditional on the owner and a running lease.
 * Releases keep the document, so its fencing counter keeps rising across releases.
 * <p>
 * Waiting instances stand in the document's line, so a free lock goes to the one that came first. A release that
 * leaves someone in line is announced by inserting a small document into {@code <collection>.releases}, which every
 * instance watches with a change stream (MongoDB replica sets and sharded clusters; on a standalone server, waiters
 * find a free lock by polling).
 */
public final class MongoLockStore implements LockStore {

    private static final Logger LOG = Logger.getLogger(MongoLockStore.class);
    private static final Document ANNOUNCEMENT_CONCERN = new Document("w", 1);
    private static final long ANNOUNCEMENT_LIFETIME_SECONDS = 60;

    private final Vertx vertx;
    private final ReactiveMongoDatabase database;
    private final String collection;
    private final String announcements;
    private final String keyPrefix;
    private final Document writeConcern;
    private final boolean createIndexes;
    private final boolean releaseNotifications;
    private final OrderedPerKey ordered = new OrderedPerKey();
    private volatile boolean announcing;

    /**
     * @param vertx the Vert.x instance, for restarting the release watch
     * @param database the database holding the lock collection
     * @param collection the lock collection's name; release announcements go to {@code <collection>.releases}
     * @param keyPrefix the namespace of lock keys: a document's id is the prefix and the key
     * @param writeConcern the write concern of every lock write, such as {@code {w: "majority"}}
     * @param createIndexes whether {@link #start()} creates the store's indexes
     * @param releaseNotifications whether releases are announced to waiters of other instances
     */
    public MongoLockStore(Vertx vertx, ReactiveMongoDatabase database, String collection, String keyPrefix,
            Document writeConcern, boolean createIndexes, boolean releaseNotifications) {
        this.vertx = vertx;
        this.database = database;
        this.collection = collection;
        this.announcements = collection + ".releases";
        this.keyPrefix = keyPrefix;
        this.writeConcern = writeConcern;
        this.createIndexes = createIndexes;
        this.releaseNotifications = releaseNotifications;
    }

    @Override
    public String name() {
        return "mongodb";
    }

    /**
     * Creates the index on {@code owner} and the one that deletes release announcements after a minute, unless
     * configured not to; creating an index that exists does nothing. Locks work without them, so a failure is
     * logged, not thrown.
     */
    @Override
    public void start() {
        if (!createIndexes) {
            return;
        }
        createIndex(collection, new Document("key", new Document(OWNER, 1)).append("name", OWNER_INDEX)
                .append("sparse", true));
        if (releaseNotifications) {
            createIndex(announcements, new Document("key", new Document(ANNOUNCED_AT, 1))
                    .append("name", ANNOUNCEMENT_TTL_INDEX)
                    .append("expireAfterSeconds", ANNOUNCEMENT_LIFETIME_SECONDS));
        }
    }

    private void createIndex(String target, Document index) {
        database.runCommand(new Document("createIndexes", target).append("indexes", List.of(index))
                .append("writeConcern", writeConcern))
                .subscribe().with(
                        reply -> LOG.debugf("Index %s of collection %s is in place", index.get("name"), target),
                        failure -> LOG.warnf("Could not create the index %s of collection %s (locks work without "
                                + "it; set quarkus.lock.mongodb.create-indexes=false if the database user may not "
                                + "create indexes): %s", index.get("name"), target, failure.getMessage()));
    }

    @Override
    public AutoCloseable watchReleases(ReleaseListener listener) {
        if (!releaseNotifications) {
            return () -> {
            };
        }
        MongoReleaseWatch watch = new MongoReleaseWatch(vertx, database.getCollection(announcements), id -> {
            if (id.startsWith(keyPrefix)) {
                listener.released(id.substring(keyPrefix.length()));
            }
        }, listener::mayHaveMissed, available -> announcing = available);
        watch.start();
        return watch;
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        String id = id(key);
        return ordered.run(id, () -> attemptInLine(id, owner, leaseMillis, waiting));
    }

    private Uni<AcquireResult> attemptInLine(String id, String owner, long leaseMillis, boolean waiting) {
        Uni<AcquireResult> attempt = attempt(id, owner, leaseMillis);
        if (!waiting) {
            return attempt;
        }
        // A failed attempt writes nothing, so joining the line is a step of its own: if the lock was released
        // between the two, nobody announced it to this waiter, and it tries once more at once.
        return attempt.flatMap(result -> result.acquired() ? Uni.createFrom().item(result)
                : keepPlace(id, owner, true).flatMap(free -> free ? attempt(id, owner, leaseMillis)
                        : Uni.createFrom().item(result)));
    }

    @Override
    public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
        String id = id(key);
        return ordered.run(id, () -> grant(new Document(ID, id), owner, leaseMillis));
    }

    @Override
    public Uni<Boolean> forceRelease(String key) {
        String id = id(key);
        return ordered.run(id, () -> release(id, MongoLockDocuments.held(id)));
    }

    private Uni<AcquireResult> attempt(String id, String owner, long leaseMillis) {
        return grant(MongoLockDocuments.acquirableBy(id, owner), owner, leaseMillis)
                .onFailure(MongoLockStore::isDuplicateKey).recoverWithItem(() -> AcquireResult.heldByAnother(-1));
    }

    /** Grants the lock matched by the filter, creating its document if there is none. */
    private Uni<AcquireResult> grant(Document filter, String owner, long leaseMillis) {
        Document command = findAndModify(filter, MongoLockDocuments.acquisition(owner, leaseMillis), TOKEN)
                .append("upsert", true)
                .append("new", true);
        return write(command)
                .map(reply -> AcquireResult.acquired(((Number) reply.get("value", Document.class).get(TOKEN))
                        .longValue()));
    }

    /**
     * Keeps the waiter's place in line, joining at the end if it has none, and takes out a first waiter whose place
     * lapsed. The server's time of this visit is the waiter's {@code seenAt}, which also tells whether the lock is
     * free now.
     *
     * @return {@code true} if the lock was free at this visit
     */
    private Uni<Boolean> keepPlace(String id, String owner, boolean mayJoin) {
        Document command = findAndModify(MongoLockDocuments.inLine(id, owner), MongoLockDocuments.placeKept(), LINE,
                OWNER, LEASE_STARTED_AT, LEASE_MILLIS).append("new", true);
        return write(command).flatMap(reply -> {
            Document lock = reply.get("value", Document.class);
            if (lock == null) {
                return mayJoin
                        ? updateOne(MongoLockDocuments.notInLine(id, owner),
                                MongoLockDocuments.joinLine(owner, new Date()))
                                .flatMap(joined -> keepPlace(id, owner, false))
                        : Uni.createFrom().item(false);
            }
            List<Document> line = lock.getList(LINE, Document.class);
            Date now = line.stream().filter(place -> owner.equals(place.getString(OWNER))).findFirst()
                    .map(place -> place.getDate(SEEN_AT)).orElseThrow();
            boolean free = isFree(lock, now);
            Document first = line.get(0);
            Date firstSeen = first.getDate(SEEN_AT);
            if (owner.equals(first.getString(OWNER)) || firstSeen.getTime() + PLACE_MILLIS >= now.getTime()) {
                return Uni.createFrom().item(free);
            }
            return updateOne(new Document(ID, id), MongoLockDocuments.leaveLine(first.getString(OWNER), firstSeen))
                    .replaceWith(free);
        });
    }

    private static boolean isFree(Document lock, Date now) {
        if (lock.get(OWNER) == null) {
            return true;
        }
        long leaseMillis = ((Number) lock.get(LEASE_MILLIS)).longValue();
        return leaseMillis != NO_EXPIRY && lock.getDate(LEASE_STARTED_AT).getTime() + leaseMillis <= now.getTime();
    }

    @Override
    public Uni<Boolean> takeBack(String key, String owner) {
        String id = id(key);
        return ordered.run(id, () -> leave(id, owner)).replaceWith(Boolean.FALSE);
    }

    private Uni<Void> leave(String id, String owner) {
        Document command = findAndModify(MongoLockDocuments.inLine(id, owner),
                MongoLockDocuments.leaveLine(owner, null), LINE, OWNER);
        return write(command).invoke(reply -> {
            Document before = reply.get("value", Document.class);
            if (before != null && before.get(OWNER) == null) {
                List<Document> line = before.getList(LINE, Document.class);
                if (line.size() > 1 && owner.equals(line.get(0).getString(OWNER))) {
                    announceRelease(id);
                }
            }
        }).replaceWithVoid();
    }

    @Override
    public Uni<Boolean> release(String key, String owner) {
        String id = id(key);
        return ordered.run(id, () -> release(id, MongoLockDocuments.heldBy(id, owner)));
    }

    /** Releases the lock matched by the filter, and announces it if someone waits. */
    private Uni<Boolean> release(String id, Document filter) {
        Document command = findAndModify(filter, MongoLockDocuments.release(), LINE).append("new", true);
        return write(command).map(reply -> {
            Document released = reply.get("value", Document.class);
            if (released == null) {
                return false;
            }
            List<Document> line = released.getList(LINE, Document.class);
            if (line != null && !line.isEmpty()) {
                announceRelease(id);
            }
            return true;
        });
    }

    @Override
    public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
        return updateOne(MongoLockDocuments.heldBy(id(key), owner), MongoLockDocuments.renewal(leaseMillis));
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        Document command = new Document("find", collection)
                .append("filter", MongoLockDocuments.heldBy(id(key), owner))
                .append("projection", new Document(ID, 1))
                .append("limit", 1)
                .append("singleBatch", true);
        return database.runCommand(command, ReadPreference.primary())
                .map(reply -> !reply.get("cursor", Document.class).getList("firstBatch", Document.class).isEmpty());
    }

    @Override
    public Uni<Void> ping() {
        return database.runCommand(new Document("ping", 1), ReadPreference.primary()).replaceWithVoid();
    }

    /**
     * Tells the waiters of other instances that the lock may be theirs. Best effort: a lost announcement costs a
     * waiter its next poll, so a failure is only logged.
     */
    private void announceRelease(String id) {
        if (!announcing) {
            return;
        }
        Document announcement = new Document(RELEASED_ID, id).append(ANNOUNCED_AT, new Date());
        database.runCommand(new Document("insert", announcements).append("documents", List.of(announcement))
                .append("writeConcern", ANNOUNCEMENT_CONCERN), ReadPreference.primary())
                .subscribe().with(reply -> {
                }, failure -> LOG.debugf("Could not announce the release of %s: %s", id, failure.getMessage()));
    }

    private Document findAndModify(Document query, Document update, String... fields) {
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

    private Uni<Boolean> updateOne(Document filter, Document update) {
        Document command = new Document("update", collection)
                .append("updates", List.of(new Document("q", filter).append("u", update)))
                .append("writeConcern", writeConcern);
        return write(command).map(reply -> reply.getInteger("n", 0) == 1);
    }

    /**
     * Runs a write command on the primary, and fails on the errors MongoDB reports inside a successful reply.
     */
    private Uni<Document> write(Document command) {
        return database.runCommand(command, ReadPreference.primary()).map(MongoLockStore::checked);
    }

    private static Document checked(Document reply) {
        List<Document> writeErrors = reply.getList("writeErrors", Document.class);
        if (writeErrors != null && !writeErrors.isEmpty()) {
            Document error = writeErrors.get(0);
            throw new MongoWriteFailure(error.getInteger("code", -1), error.getString("errmsg"));
        }
        Document concernError = reply.get("writeConcernError", Document.class);
        if (concernError != null) {
            throw new MongoWriteFailure(concernError.getInteger("code", -1),
                    "write concern not satisfied: " + concernError.getString("errmsg"));
        }
        return reply;
    }

    private static boolean isDuplicateKey(Throwable failure) {
        int code = failure instanceof MongoServerException server ? server.getCode()
                : failure instanceof MongoWriteFailure write ? write.code() : -1;
        return ErrorCategory.fromErrorCode(code) == ErrorCategory.DUPLICATE_KEY;
    }

    private String id(String key) {
        return keyPrefix + key;
    }

    /**
     * A write error that MongoDB reported inside an otherwise successful reply.
     */
    static final class MongoWriteFailure extends RuntimeException {

        private final int code;

        MongoWriteFailure(int code, String message) {
            super("MongoDB error " + code + ": " + message);
            this.code = code;
        }

        int code() {
            return code;
        }
    }
}
