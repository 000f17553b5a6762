package io.quarkiverse.lock.runtime.store.mongodb;

import java.util.List;

import org.bson.Document;

import io.smallrye.mutiny.Uni;

/**
 * The release announcements in {@code <collection>.releases}: one small document per lock key, upserted at each
 * release that leaves someone in line, so their number never exceeds the number of lock keys, even without the TTL
 * index that deletes the idle ones. Their time is the server's ({@code $currentDate}). Every instance watches the
 * collection's inserts and updates with one change stream ({@link MongoReleaseWatch}).
 *
 * <pre>
 * { _id: "lock:orders-42",   // the released lock document's id
 *   at: ISODate(...),        // server time of the last announcement (the TTL index deletes it a minute later)
 *   n: 12 }                  // how many releases were announced
 * </pre>
 *
 * The document with {@code _id} {@link #PROBE_ID} (a number: lock ids are strings) is not an announcement: a watch
 * writes it to learn that its change stream is open.
 */
final class MongoReleaseAnnouncements {

    /** The field holding the time of the last announcement, in server time. */
    static final String AT = "at";
    /** The TTL index that deletes announcements a minute after the last one. */
    static final String TTL_INDEX = "quarkus_lock_announcement_ttl";
    /** The id of the probe document, of another type than any lock id. */
    static final int PROBE_ID = 0;

    private static final String COUNT = "n";
    private static final long LIFETIME_SECONDS = 60;
    private static final Document ACKNOWLEDGED_BY_PRIMARY = new Document("w", 1);

    private final MongoCommands commands;
    private final String collection;

    MongoReleaseAnnouncements(MongoCommands commands, String collection) {
        this.commands = commands;
        this.collection = collection;
    }

    /** The announcements collection's name. */
    String collection() {
        return collection;
    }

    /**
     * Announces a release. Best effort (a lost announcement costs a waiter its next poll), so acknowledged by the
     * primary alone.
     *
     * @param id the released lock document's id
     * @return completes when the primary has it
     */
    Uni<Void> announce(String id) {
        return touch(id);
    }

    /**
     * Completes when the primary has it. Changes the probe document, so that an open change stream on the collection
     * reports a change.
     */
    Uni<Void> probe() {
        return touch(PROBE_ID);
    }

    /**
     * The specification of the TTL index (unchanged since the first version of the store, since MongoDB refuses an
     * index of the same name with other options).
     */
    static Document ttlIndex() {
        return new Document("key", new Document(AT, 1)).append("name", TTL_INDEX)
                .append("expireAfterSeconds", LIFETIME_SECONDS);
    }

    private Uni<Void> touch(Object id) {
        Document upsert = new Document("q", new Document(MongoLockDocuments.ID, id))
                .append("u", new Document("$inc", new Document(COUNT, 1L))
                        .append("$currentDate", new Document(AT, true)))
                .append("upsert", true);
        return commands.write(new Document("update", collection).append("updates", List.of(upsert))
                .append("writeConcern", ACKNOWLEDGED_BY_PRIMARY)).replaceWithVoid();
    }
}
