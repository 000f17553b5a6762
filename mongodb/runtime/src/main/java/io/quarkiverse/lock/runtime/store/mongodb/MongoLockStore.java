package io.quarkiverse.lock.runtime.store.mongodb;

import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.ID;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.LINE;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.OWNER;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.OWNER_INDEX;

import java.util.List;
import java.util.function.Supplier;

import org.bson.Document;
import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockPage;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.quarkiverse.lock.spi.OrderedPerKey;
import io.quarkiverse.lock.spi.ReleaseListener;
import io.quarkus.mongodb.reactive.ReactiveMongoDatabase;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * A store on MongoDB: one document per lock key (shape in {@link MongoLockDocuments}), each change of a lock one
 * atomic command on that document, sent to the primary with the configured write concern and bounded by the driver's
 * operation timeout ({@link MongoCommands}).
 * <p>
 * An acquisition is a conditional {@code findAndModify} (see {@link MongoGrants}); a release and a renewal are updates
 * conditional on the owner and a running lease. Releases keep the document, so its fencing counter keeps rising
 * across releases. Waiting instances stand in the document's line ({@link MongoLine}), so a free lock goes to the one
 * that came first. A release that leaves someone in line is announced ({@link MongoReleaseAnnouncements}), and every
 * instance watches the announcements with a change stream (replica sets and sharded clusters; on a standalone server,
 * waiters find a free lock by polling).
 * <p>
 * Every command targets a document by its {@code _id} and uses only classic update operators, and no upsert has
 * {@code $expr} in its filter: the commands run on MongoDB 5.0 to 8.0 (the guide lists each with the server source
 * that accepts it).
 */
public final class MongoLockStore implements LockStore {

    /** The store's name, the value of {@code quarkus.lock.provider} that chooses it. */
    public static final String NAME = "mongodb";

    private static final Logger LOG = Logger.getLogger(MongoLockStore.class);

    private final Vertx vertx;
    private final ReactiveMongoDatabase database;
    private final MongoLockStoreSettings settings;
    private final MongoCommands commands;
    private final WriteConcernCheck writeConcernCheck;
    private final MongoReleaseAnnouncements announcements;
    private final MongoGrants grants;
    private final MongoLine line;
    private final OrderedPerKey ordered = new OrderedPerKey();
    private volatile boolean announcing;

    /**
     * @param vertx the Vert.x instance, for the release watch's timers
     * @param database the database holding the lock collection
     * @param settings how the store works
     */
    public MongoLockStore(Vertx vertx, ReactiveMongoDatabase database, MongoLockStoreSettings settings) {
        this.vertx = vertx;
        this.database = database;
        this.settings = settings;
        this.commands = new MongoCommands(database, settings.operationTimeout());
        this.writeConcernCheck = new WriteConcernCheck(commands, settings);
        this.announcements = new MongoReleaseAnnouncements(commands, settings.collection() + ".releases");
        this.grants = new MongoGrants(commands, settings, this::announceRelease);
        this.line = new MongoLine(commands, settings.collection());
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
        String id = id(key);
        return ordered.run(id, () -> unlessRefused(() -> waiting ? attemptInLine(id, owner, leaseMillis)
                : grants.attempt(id, owner, leaseMillis)));
    }

    /**
     * A failed attempt writes nothing, so keeping (or taking) a place in line is a step of its own; if the lock
     * became free for this waiter in between (released, or its first waiter lapsed), nobody announced it to this
     * waiter, and it tries once more at once.
     */
    private Uni<AcquireResult> attemptInLine(String id, String owner, long leaseMillis) {
        return grants.ifFree(id, owner, leaseMillis).flatMap(result -> {
            if (result.acquired()) {
                return Uni.createFrom().item(result);
            }
            return line.visit(id, owner).flatMap(visit -> {
                if (visit.missing()) {
                    return grants.create(id, owner, leaseMillis);
                }
                if (visit.mayTake()) {
                    return grants.ifFree(id, owner, leaseMillis);
                }
                return Uni.createFrom().item(AcquireResult.heldByAnother(visit.holderRemainingMillis()));
            });
        });
    }

    /**
     * Takes the lock whoever holds it. A take-over whose caller gave up, or whose operation timeout ran out, while it
     * waited behind the lock's earlier commands is never sent: sent later, it would take a lock granted since from a
     * holder that keeps working as if it held it. For the same reason its second command, after a duplicate key, is
     * not sent once the operation timeout ran out.
     */
    @Override
    public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
        String id = id(key);
        return Uni.createFrom().deferred(() -> {
            long sendBy = System.nanoTime() + settings.operationTimeout().toNanos();
            return ordered.runUnlessGivenUp(id, settings.operationTimeout(),
                    () -> unlessRefused(() -> grants.takeOver(id, owner, leaseMillis, sendBy)));
        });
    }

    /**
     * Frees the lock whoever holds it. Like {@link #takeOver}, it is never sent once its caller gave up on it, or its
     * operation timeout ran out, while it waited behind the lock's earlier commands.
     */
    @Override
    public Uni<Boolean> forceRelease(String key) {
        String id = id(key);
        return ordered.runUnlessGivenUp(id, settings.operationTimeout(),
                () -> unlessRefused(() -> release(id, MongoLockDocuments.held(id), MongoLockDocuments.release())));
    }

    /**
     * Releases the lock if {@code owner} holds it (a hold whose reply its caller never saw), taking {@code owner} out
     * of the line in the same command; otherwise only takes it out of the line. Two commands, each atomic; nothing in
     * between can grant the lock to {@code owner}, since only {@code owner}'s own attempts could, and this instance
     * runs its operations on a lock one after the other ({@link OrderedPerKey}). An attempt whose grant command failed
     * may still reach the server later, so before both, such an owner is recorded as taken back, which no later grant
     * can pass ({@link MongoGrants#refuseLateGrants}).
     */
    @Override
    public Uni<Boolean> takeBack(String key, String owner) {
        String id = id(key);
        return ordered.run(id, () -> unlessRefused(() -> grants.refuseLateGrants(id, owner)
                .chain(() -> release(id, MongoLockDocuments.heldBy(id, owner), MongoLockDocuments.releaseAndLeave(owner)))
                .flatMap(released -> released ? Uni.createFrom().item(Boolean.TRUE) : leaveLine(id, owner))));
    }

    private Uni<Boolean> leaveLine(String id, String owner) {
        return line.leave(id, owner).map(before -> {
            if (before != null && before.get(OWNER) == null) {
                List<Document> waiting = before.getList(LINE, Document.class);
                if (waiting.size() > 1 && owner.equals(waiting.get(0).getString(OWNER))) {
                    announceRelease(id);
                }
            }
            return Boolean.FALSE;
        });
    }

    @Override
    public Uni<Boolean> release(String key, String owner) {
        String id = id(key);
        return ordered.run(id, () -> unlessRefused(() -> release(id, MongoLockDocuments.heldBy(id, owner),
                MongoLockDocuments.release())));
    }

    /** Releases the lock matched by the filter, and announces it if someone waits. */
    private Uni<Boolean> release(String id, Document filter, Document update) {
        Document command = MongoCommands.findAndModify(settings.collection(), filter, update,
                settings.writeConcern(), LINE).append("new", true);
        return commands.write(command).map(reply -> {
            Document released = reply.get("value", Document.class);
            if (released == null) {
                return false;
            }
            List<Document> waiting = released.getList(LINE, Document.class);
            if (waiting != null && !waiting.isEmpty()) {
                announceRelease(id);
            }
            return true;
        });
    }

    /**
     * Renews the lease unless a release set it as the holder's last ({@link #releaseAfter}). Renewals do not wait for
     * the lock's other operations: a renewal that reaches the server after that release, though sent before it, is
     * refused by its filter.
     */
    @Override
    public Uni<Boolean> renew(String key, String owner, long leaseMillis) {
        return setLease(MongoLockDocuments.renewableBy(id(key), owner), MongoLockDocuments.renewal(leaseMillis));
    }

    /** Sets the lease as the holder's last, which no later renewal matches. */
    @Override
    public Uni<Boolean> releaseAfter(String key, String owner, long leaseMillis) {
        return setLease(MongoLockDocuments.heldBy(id(key), owner), MongoLockDocuments.lastLease(leaseMillis));
    }

    private Uni<Boolean> setLease(Document filter, Document update) {
        return unlessRefused(() -> commands.write(MongoCommands.updateOne(settings.collection(), filter, update,
                settings.writeConcern())).map(reply -> reply.getInteger("n", 0) == 1));
    }

    @Override
    public Uni<Boolean> isHeld(String key, String owner) {
        Document command = new Document("find", settings.collection())
                .append("filter", MongoLockDocuments.heldBy(id(key), owner))
                .append("projection", new Document(ID, 1))
                .append("limit", 1)
                .append("singleBatch", true);
        return commands.read(command)
                .map(reply -> !reply.get("cursor", Document.class).getList("firstBatch", Document.class).isEmpty());
    }

    /**
     * Reads one page by a sorted range on {@code _id} ({@link MongoListing}).
     */
    @Override
    public Uni<LockPage> listHeld(String cursor, int limit) {
        return commands.read(MongoListing.command(settings.collection(), settings.keyPrefix(), cursor, limit))
                .map(reply -> MongoListing.page(reply, settings.keyPrefix(), limit));
    }

    @Override
    public AutoCloseable watchReleases(ReleaseListener listener) {
        if (!settings.releaseNotifications()) {
            return () -> {
            };
        }
        String prefix = settings.keyPrefix();
        MongoReleaseWatch watch = new MongoReleaseWatch(vertx, database.getCollection(announcements.collection()),
                announcements, id -> {
                    if (id.startsWith(prefix)) {
                        listener.released(id.substring(prefix.length()));
                    }
                }, listener::mayHaveMissed, available -> announcing = available);
        watch.start();
        return watch;
    }

    /**
     * Pings the server, and checks a numeric write concern against the deployment again.
     */
    @Override
    public Uni<Void> ping() {
        return writeConcernCheck.recheck().flatMap(checked -> commands.read(new Document("ping", 1)))
                .replaceWithVoid();
    }

    /**
     * Checks a numeric write concern against the deployment, and creates the index on {@code owner} and the one that
     * deletes idle release announcements, unless configured not to; creating an index that exists does nothing. Locks
     * work without the indexes, so a failure to create them is logged, not thrown.
     */
    @Override
    public void start() {
        writeConcernCheck.start();
        if (!settings.createIndexes()) {
            return;
        }
        createIndex(settings.collection(), new Document("key", new Document(OWNER, 1)).append("name", OWNER_INDEX)
                .append("sparse", true));
        if (settings.releaseNotifications()) {
            createIndex(announcements.collection(), MongoReleaseAnnouncements.ttlIndex());
        }
    }

    private void createIndex(String target, Document index) {
        commands.write(new Document("createIndexes", target).append("indexes", List.of(index))
                .append("writeConcern", settings.writeConcern()))
                .subscribe().with(
                        reply -> LOG.debugf("Index %s of collection %s is in place", index.get("name"), target),
                        failure -> LOG.warnf("Could not create the index %s of collection %s (locks work without "
                                + "it; set quarkus.lock.mongodb.create-indexes=false if the database user may not "
                                + "create indexes): %s", index.get("name"), target, failure.getMessage()));
    }

    /**
     * Tells the waiters of other instances that the lock may be theirs, when a change stream carries announcements.
     * Best effort: a lost announcement costs a waiter its next poll, so a failure is only logged.
     */
    private void announceRelease(String id) {
        if (!announcing) {
            return;
        }
        announcements.announce(id).subscribe().with(written -> {
        }, failure -> LOG.debugf("Could not announce the release of %s: %s", id, failure.getMessage()));
    }

    /**
     * Runs a write, unless the configured write concern was found unsatisfiable: then fails at once, sending nothing.
     */
    private <T> Uni<T> unlessRefused(Supplier<Uni<T>> write) {
        IllegalStateException refusal = writeConcernCheck.refusal();
        return refusal == null ? write.get() : Uni.createFrom().failure(refusal);
    }

    private String id(String key) {
        return settings.keyPrefix() + key;
    }

    /** @return this store's instance id in the lock documents' record of grant commands taken back */
    String instance() {
        return grants.instance();
    }
}
