package io.quarkiverse.lock.runtime.store.mongodb;

import java.util.Date;
import java.util.List;

import org.bson.Document;

import io.quarkiverse.lock.spi.LockStore;

/**
 * The shape of a lock document, and the filters and updates the MongoDB store sends, in one place.
 * <p>
 * One document per lock key, kept after release so that its fencing counter survives:
 *
 * <pre>
 * { _id: "lock:orders-42",          // key prefix + lock key
 *   owner: "Yq3...",                // the holder's owner id; absent when released
 *   grant: 17,                      // which command of the holder's instance granted it; absent when released
 *   token: 7,                       // fencing counter: +1 at every acquisition
 *   acquiredAt: ISODate(...),       // server time of the last acquisition
 *   leaseStartedAt: ISODate(...),   // server time of the acquisition or of the last renewal; absent when released
 *   leaseMillis: 10000,             // the lease; 0 for a lock acquired forever; absent when released
 *   lastLease: true,                // the lease a release set to keep the lock for its minimum hold: no renewal
 *                                   // extends it; absent otherwise
 *   releasedAt: ISODate(...),       // server time of the last release; absent while held
 *   line: [ { owner: "Pz1...", seenAt: ISODate(...) }, ... ],   // waiting instances, in arrival order
 *   takenBackUpTo: { "Hk8...": 412, ... } }  // per instance, the grant commands up to that number may still arrive
 *                                            // after their take-back: none of them grants
 * </pre>
 *
 * Every time in the document is the database server's: leases start at {@code $currentDate} and end when
 * {@code leaseStartedAt + leaseMillis} passes {@code $$NOW}, and a waiter's {@code seenAt} is the server's time of its
 * last visit. A waiter joins the line with {@code seenAt} 1970-01-01 (never seen), which its next command replaces by
 * the server's time; so no client clock ever decides a lease or a place. A free lock goes to the first waiter in
 * {@code line}, or to anyone when the line is empty or its first waiter has not been seen for
 * {@link LockStore#PLACE_MILLIS} (it gave up or died).
 * <p>
 * A grant command whose outcome its sender does not know (no reply in time) may still reach the server after the
 * acquisition was taken back: its bytes held on the way, retransmitted after the client closed the connection, or
 * delivered late by a middlebox. Every grant command carries its sender's instance id and a number that rises with
 * each grant command of that instance; before such an acquisition is taken back, the instance raises its entry in
 * {@code takenBackUpTo} to its last number ({@code $max}), and every grant's filter refuses a command whose number is
 * not above its instance's entry: a late grant then matches nothing. An instance runs its commands on one lock one
 * after the other, so every earlier grant command of it on that lock has then either been answered, and ran, or may
 * still arrive, and must not grant. The record keeps one entry per instance whose grant on that lock got no answer,
 * however many did, and never drops one.
 * <p>
 * Every update is made of classic update operators and every filter that an upsert uses is free of {@code $expr}, so
 * that the commands run on every MongoDB version from 5.0 (and on the test emulator, which has no update pipelines).
 */
final class MongoLockDocuments {

    static final String ID = "_id";
    static final String OWNER = "owner";
    static final String GRANT = "grant";
    static final String TOKEN = "token";
    static final String ACQUIRED_AT = "acquiredAt";
    static final String LEASE_STARTED_AT = "leaseStartedAt";
    static final String LEASE_MILLIS = "leaseMillis";
    static final String RELEASED_AT = "releasedAt";
    static final String LINE = "line";
    static final String SEEN_AT = "seenAt";
    static final String TAKEN_BACK_UP_TO = "takenBackUpTo";
    static final String LAST_LEASE = "lastLease";
    /** The index on {@link #OWNER}, sparse: released documents have no owner. */
    static final String OWNER_INDEX = "quarkus_lock_owner";
    /** The {@code seenAt} of a waiter that joined the line and was not seen by the server yet. */
    static final Date NEVER_SEEN = new Date(0);

    private static final Document LEASE_END = new Document("$add", List.of("$" + LEASE_STARTED_AT,
            "$" + LEASE_MILLIS));
    private static final Document FIRST_IN_LINE_LAPSED = new Document("$expr", new Document("$lt", List.of(
            new Document("$add", List.of(new Document("$arrayElemAt", List.of("$" + LINE + "." + SEEN_AT, 0)),
                    LockStore.PLACE_MILLIS)),
            "$$NOW")));

    private static final List<Document> RUNNING_LEASE = List.of(
            new Document(LEASE_MILLIS, LockStore.NO_EXPIRY),
            new Document("$expr", new Document("$gt", List.of(LEASE_END, "$$NOW"))));

    private MongoLockDocuments() {
    }

    /**
     * Matches the lock when nobody holds it (released, or its lease ran out) and {@code owner} may take it: nobody is
     * in line before it, or the first in line lapsed; and the command was not taken back ({@link #notTakenBack}). For a
     * command without upsert ({@code $expr} is refused in the query of an upsert).
     */
    static Document acquirableBy(String id, String owner, Grant grant) {
        Document expired = new Document(LEASE_MILLIS, new Document("$gt", LockStore.NO_EXPIRY))
                .append("$expr", new Document("$lte", List.of(LEASE_END, "$$NOW")));
        Document free = new Document("$or", List.of(new Document(OWNER, null), expired));
        Document firstInLine = new Document("$or", List.of(
                new Document(LINE + ".0", new Document("$exists", false)),
                new Document(LINE + ".0." + OWNER, owner),
                FIRST_IN_LINE_LAPSED));
        return notTakenBack(id, grant).append("$and", List.of(free, firstInLine));
    }

    /**
     * Matches the lock document only if it was never granted, and the command was not taken back. For the upsert that
     * creates a lock document: free of {@code $expr}, and matching no granted lock document (each has a token), so
     * that the upsert either grants a new lock or fails with a duplicate key.
     */
    static Document absent(String id, Grant grant) {
        return notTakenBack(id, grant).append(TOKEN, new Document("$exists", false));
    }

    /**
     * Matches the lock document unless the grant command was taken back: its number is not above its instance's entry
     * in {@code takenBackUpTo}. Free of {@code $expr}, for upserts: an upsert whose filter matches nothing because the
     * command was taken back fails with a duplicate key.
     */
    static Document notTakenBack(String id, Grant grant) {
        return new Document(ID, id).append(TAKEN_BACK_UP_TO + "." + grant.instance(),
                new Document("$not", new Document("$gte", grant.number())));
    }

    /**
     * @param instance the instance taking back an acquisition whose grant command may still arrive
     * @param upTo its last grant number: none of its grant commands up to it may grant any more
     * @return the update that raises the instance's entry in {@code takenBackUpTo} to {@code upTo}
     */
    static Document takeBackRecorded(String instance, long upTo) {
        return new Document("$max", new Document(TAKEN_BACK_UP_TO + "." + instance, upTo));
    }

    /** Matches the lock when {@code owner} holds it and its lease has not run out. For a command without upsert. */
    static Document heldBy(String id, String owner) {
        return new Document(ID, id).append(OWNER, owner).append("$or", RUNNING_LEASE);
    }

    /**
     * Matches the lock when {@code owner} holds it, its lease has not run out and no release set it as the last
     * ({@link #lastLease}). For a command without upsert.
     */
    static Document renewableBy(String id, String owner) {
        return heldBy(id, owner).append(LAST_LEASE, new Document("$exists", false));
    }

    /** Matches the lock when anybody holds it and its lease has not run out. For a command without upsert. */
    static Document held(String id) {
        return new Document(ID, id).append(OWNER, new Document("$ne", null)).append("$or", RUNNING_LEASE);
    }

    /** Matches the lock when {@code owner} is its holder, whether or not its lease ran out. */
    static Document ownedBy(String id, String owner) {
        return new Document(ID, id).append(OWNER, owner);
    }

    /**
     * @param id the document id
     * @param owner the owner id
     * @param grant one grant command
     * @return matches the lock when that command granted it to {@code owner} and nothing granted it since
     */
    static Document grantedBy(String id, String owner, Grant grant) {
        return new Document(ID, id).append(OWNER, owner).append(GRANT, grant.number());
    }

    /**
     * One grant command.
     *
     * @param instance the id of the instance that sends it, random, a valid field name
     * @param number its number, above every earlier grant command's of that instance
     */
    record Grant(String instance, long number) {
    }

    /**
     * @param owner the new holder
     * @param grant the command that grants it
     * @param leaseMillis its lease, or {@link LockStore#NO_EXPIRY}
     * @return the update that grants the lock, issues the next fencing token and takes the holder out of line
     */
    static Document acquisition(String owner, Grant grant, long leaseMillis) {
        return new Document("$set", new Document(OWNER, owner).append(GRANT, grant.number())
                .append(LEASE_MILLIS, leaseMillis))
                .append("$currentDate", new Document(ACQUIRED_AT, true).append(LEASE_STARTED_AT, true))
                .append("$inc", new Document(TOKEN, 1L))
                .append("$unset", new Document(RELEASED_AT, "").append(LAST_LEASE, ""))
                .append("$pull", new Document(LINE, new Document(OWNER, owner)));
    }

    /** The update that frees the lock and keeps its fencing counter and its line. */
    static Document release() {
        return new Document("$unset", new Document(OWNER, "").append(GRANT, "").append(LEASE_MILLIS, "")
                .append(LEASE_STARTED_AT, "").append(LAST_LEASE, ""))
                .append("$currentDate", new Document(RELEASED_AT, true));
    }

    /**
     * @param owner the holder taking its acquisition back
     * @return the update that frees the lock and takes {@code owner} out of the line too
     */
    static Document releaseAndLeave(String owner) {
        return release().append("$pull", new Document(LINE, new Document(OWNER, owner)));
    }

    /** The update that restarts the lease now. */
    static Document renewal(long leaseMillis) {
        return new Document("$set", new Document(LEASE_MILLIS, leaseMillis))
                .append("$currentDate", new Document(LEASE_STARTED_AT, true));
    }

    /**
     * The update that restarts the lease now as the holder's last: a release that keeps the lock for its minimum
     * hold. No renewal matches it afterwards ({@link #renewableBy}), so a renewal that reaches the server after it,
     * though sent before, cannot restore the full lease.
     */
    static Document lastLease(long leaseMillis) {
        Document update = renewal(leaseMillis);
        update.get("$set", Document.class).append(LAST_LEASE, true);
        return update;
    }

    /** Matches the lock when {@code owner} is in its line. */
    static Document inLine(String id, String owner) {
        return new Document(ID, id).append(LINE + "." + OWNER, owner);
    }

    /** Matches the lock when {@code owner} is not in its line. */
    static Document notInLine(String id, String owner) {
        return new Document(ID, id).append(LINE + "." + OWNER, new Document("$ne", owner));
    }

    /** The update that keeps the place of the waiter matched by {@link #inLine}: seen now, by the server. */
    static Document placeKept() {
        return new Document("$currentDate", new Document(LINE + ".$." + SEEN_AT, true));
    }

    /** The update that puts {@code owner} at the end of the line, {@link #NEVER_SEEN} until its next visit. */
    static Document joinLine(String owner) {
        return new Document("$push", new Document(LINE, new Document(OWNER, owner).append(SEEN_AT, NEVER_SEEN)));
    }

    /**
     * Matches the lock when {@code owner} is first in its line and was not seen for {@link LockStore#PLACE_MILLIS}. For
     * a command without upsert.
     */
    static Document lapsedFirst(String id, String owner) {
        return new Document(ID, id).append(LINE + ".0." + OWNER, owner).append("$expr",
                FIRST_IN_LINE_LAPSED.get("$expr"));
    }

    /** The update that takes that waiter out of the line. */
    static Document leaveLine(String owner) {
        return new Document("$pull", new Document(LINE, new Document(OWNER, owner)));
    }
}
