package io.quarkiverse.lock.runtime.store.mongodb;

import java.util.Date;
import java.util.List;

import org.bson.Document;

import io.quarkiverse.lock.runtime.store.LockStore;

/**
 * The shape of a lock document, and the filters and updates the MongoDB store sends, in one place.
 * <p>
 * One document per lock key, kept after release so that its fencing counter survives:
 *
 * <pre>
 * { _id: "lock:orders-42",          // key prefix + lock key
 *   owner: "Yq3...",                // the holder's owner id; absent when released
 *   token: 7,                       // fencing counter: +1 at every acquisition
 *   acquiredAt: ISODate(...),       // server time of the last acquisition
 *   leaseStartedAt: ISODate(...),   // server time of the acquisition or of the last renewal; absent when released
 *   leaseMillis: 10000,             // the lease; 0 for a lock acquired forever; absent when released
 *   releasedAt: ISODate(...),       // server time of the last release; absent while held
 *   line: [ { owner: "Pz1...", seenAt: ISODate(...) }, ... ] }  // waiting instances, in arrival order
 * </pre>
 *
 * A lease ends at {@code leaseStartedAt + leaseMillis}; both the start ({@code $currentDate}) and the comparison
 * ({@code $$NOW}) use the database server's clock, so instances whose clocks disagree still agree on expiry. A free
 * lock goes to the first waiter in {@code line}, or to anyone when the line is empty or its first waiter has not been
 * seen for {@link #PLACE_MILLIS} (it gave up or died).
 */
final class MongoLockDocuments {

    static final String ID = "_id";
    static final String OWNER = "owner";
    static final String TOKEN = "token";
    static final String ACQUIRED_AT = "acquiredAt";
    static final String LEASE_STARTED_AT = "leaseStartedAt";
    static final String LEASE_MILLIS = "leaseMillis";
    static final String RELEASED_AT = "releasedAt";
    static final String LINE = "line";
    static final String SEEN_AT = "seenAt";
    /** The release announcements' field holding the released document's id. */
    static final String RELEASED_ID = "lock";
    /** The release announcements' field holding when the release was announced (for the TTL index). */
    static final String ANNOUNCED_AT = "at";
    /** The index on {@link #OWNER}, sparse: released documents have no owner. */
    static final String OWNER_INDEX = "quarkus_lock_owner";
    /** The TTL index that deletes release announcements after a minute. */
    static final String ANNOUNCEMENT_TTL_INDEX = "quarkus_lock_announcement_ttl";
    /**
     * How long a waiter keeps its place in line without asking again. Waiters ask at least every 64 ms (and at every
     * release they hear of), so only a waiter that gave up without saying so, or whose instance died, loses its place.
     */
    static final long PLACE_MILLIS = 1000;

    private static final Document LEASE_END = new Document("$add", List.of("$" + LEASE_STARTED_AT,
            "$" + LEASE_MILLIS));
    private static final Document FIRST_IN_LINE_LAPSED = new Document("$expr", new Document("$lt", List.of(
            new Document("$add", List.of(new Document("$arrayElemAt", List.of("$" + LINE + "." + SEEN_AT, 0)),
                    PLACE_MILLIS)),
            "$$NOW")));

    private static final List<Document> RUNNING_LEASE = List.of(
            new Document(LEASE_MILLIS, LockStore.NO_EXPIRY),
            new Document("$expr", new Document("$gt", List.of(LEASE_END, "$$NOW"))));

    private MongoLockDocuments() {
    }

    /**
     * @param id the document id
     * @param owner the owner id asking
     * @return matches the lock when nobody holds it (released, never acquired, or its lease ran out) and
     *         {@code owner} may take it: nobody is in line before it, or the first in line lapsed
     */
    static Document acquirableBy(String id, String owner) {
        Document expired = new Document(LEASE_MILLIS, new Document("$gt", LockStore.NO_EXPIRY))
                .append("$expr", new Document("$lte", List.of(LEASE_END, "$$NOW")));
        Document free = new Document("$or", List.of(new Document(OWNER, null), expired));
        Document firstInLine = new Document("$or", List.of(
                new Document(LINE + ".0", new Document("$exists", false)),
                new Document(LINE + ".0." + OWNER, owner),
                FIRST_IN_LINE_LAPSED));
        return new Document(ID, id).append("$and", List.of(free, firstInLine));
    }

    /**
     * @param id the document id
     * @param owner the owner id
     * @return matches the lock when {@code owner} holds it and its lease has not run out
     */
    static Document heldBy(String id, String owner) {
        return new Document(ID, id).append(OWNER, owner).append("$or", RUNNING_LEASE);
    }

    /**
     * @param id the document id
     * @return matches the lock when anybody holds it and its lease has not run out
     */
    static Document held(String id) {
        return new Document(ID, id).append(OWNER, new Document("$ne", null)).append("$or", RUNNING_LEASE);
    }

    /**
     * @param owner the new holder
     * @param leaseMillis its lease, or {@link LockStore#NO_EXPIRY}
     * @return the update that grants the lock, issues the next fencing token and takes the holder out of line
     */
    static Document acquisition(String owner, long leaseMillis) {
        return new Document("$set", new Document(OWNER, owner).append(LEASE_MILLIS, leaseMillis))
                .append("$currentDate", new Document(ACQUIRED_AT, true).append(LEASE_STARTED_AT, true))
                .append("$inc", new Document(TOKEN, 1L))
                .append("$unset", new Document(RELEASED_AT, ""))
                .append("$pull", new Document(LINE, new Document(OWNER, owner)));
    }

    /**
     * @return the update that frees the lock and keeps its fencing counter and its line
     */
    static Document release() {
        return new Document("$unset", new Document(OWNER, "").append(LEASE_MILLIS, "").append(LEASE_STARTED_AT, ""))
                .append("$currentDate", new Document(RELEASED_AT, true));
    }

    /**
     * @param leaseMillis the new lease
     * @return the update that restarts the lease now
     */
    static Document renewal(long leaseMillis) {
        return new Document("$set", new Document(LEASE_MILLIS, leaseMillis))
                .append("$currentDate", new Document(LEASE_STARTED_AT, true));
    }

    /**
     * @param id the document id
     * @param owner the waiter
     * @return matches the lock when {@code owner} is in its line
     */
    static Document inLine(String id, String owner) {
        return new Document(ID, id).append(LINE + "." + OWNER, owner);
    }

    /**
     * @param id the document id
     * @param owner the waiter
     * @return matches the lock when {@code owner} is not in its line
     */
    static Document notInLine(String id, String owner) {
        return new Document(ID, id).append(LINE + "." + OWNER, new Document("$ne", owner));
    }

    /**
     * @return the update that keeps the place of the waiter matched by {@link #inLine}: seen now, by the server
     */
    static Document placeKept() {
        return new Document("$currentDate", new Document(LINE + ".$." + SEEN_AT, true));
    }

    /**
     * @param owner the waiter
     * @param now this instance's time; the next {@link #placeKept()} replaces it by the server's
     * @return the update that puts {@code owner} at the end of the line
     */
    static Document joinLine(String owner, Date now) {
        return new Document("$push", new Document(LINE, new Document(OWNER, owner).append(SEEN_AT, now)));
    }

    /**
     * @param owner the waiter
     * @param seenAt when it was last seen, so a waiter that came back in the meantime keeps its place
     * @return the update that takes that waiter out of the line
     */
    static Document leaveLine(String owner, Date seenAt) {
        Document place = new Document(OWNER, owner);
        if (seenAt != null) {
            place.append(SEEN_AT, seenAt);
        }
        return new Document("$pull", new Document(LINE, place));
    }
}
