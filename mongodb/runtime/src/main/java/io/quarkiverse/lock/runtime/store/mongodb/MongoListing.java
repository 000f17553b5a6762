package io.quarkiverse.lock.runtime.store.mongodb;

import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.ACQUIRED_AT;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.ID;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.LEASE_MILLIS;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.LEASE_STARTED_AT;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.LINE;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.OWNER;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.TOKEN;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;

import org.bson.Document;

import io.quarkiverse.lock.HeldLock;
import io.quarkiverse.lock.LockPage;

/**
 * One page of the held locks of the MongoDB store: an {@code aggregate} that reads at most {@code limit} documents
 * by a range on {@code _id} (after the cursor, below the first string past the key prefix, which the server
 * answers from the {@code _id} index), sorted on {@code _id}, and computes each lease's time left by the
 * server's clock ({@code $$NOW}). Released documents, kept for their fencing counter, count toward the limit, so a
 * page may list fewer locks while more follow; the cursor is the last key the page read.
 */
final class MongoListing {

    private static final String FOREVER = "forever";
    private static final String LEFT = "left";
    private static final String WAITERS = "waiters";

    private MongoListing() {
    }

    /**
     * @return the {@code aggregate} command of one page; its cursor's batch holds the whole page
     */
    static Document command(String collection, String keyPrefix, String cursor, int limit) {
        Document range = new Document("$gt", keyPrefix + (cursor == null ? "" : cursor));
        String below = upperBound(keyPrefix);
        if (below != null) {
            range.append("$lt", below);
        }
        Document projection = new Document(OWNER, 1).append(TOKEN, 1).append(ACQUIRED_AT, 1)
                .append(FOREVER, new Document("$eq", List.of("$" + LEASE_MILLIS, 0L)))
                .append(LEFT, new Document("$subtract", List.of(
                        new Document("$add", List.of("$" + LEASE_STARTED_AT, "$" + LEASE_MILLIS)), "$$NOW")))
                .append(WAITERS, new Document("$size", new Document("$ifNull", List.of("$" + LINE, List.of()))));
        List<Document> pipeline = List.of(new Document("$match", new Document(ID, range)),
                new Document("$sort", new Document(ID, 1)), new Document("$limit", limit),
                new Document("$project", projection));
        // one more than the page, so the server sees the cursor exhausted and keeps none open
        return new Document("aggregate", collection).append("pipeline", pipeline)
                .append("cursor", new Document("batchSize", limit + 1));
    }

    /**
     * @return the page the reply to {@link #command} holds
     */
    static LockPage page(Document reply, String keyPrefix, int limit) {
        List<Document> documents = reply.get("cursor", Document.class).getList("firstBatch", Document.class);
        List<HeldLock> held = new ArrayList<>();
        String last = null;
        boolean pastPrefix = false;
        for (Document document : documents) {
            String stored = document.getString(ID);
            if (!stored.startsWith(keyPrefix)) {
                // only when the range has no upper bound: every later _id is past the prefix too
                pastPrefix = true;
                break;
            }
            last = stored.substring(keyPrefix.length());
            String owner = document.getString(OWNER);
            boolean forever = Boolean.TRUE.equals(document.getBoolean(FOREVER));
            Number left = document.get(LEFT, Number.class);
            if (owner != null && (forever || (left != null && left.longValue() > 0))) {
                Date acquiredAt = document.getDate(ACQUIRED_AT);
                held.add(new HeldLock(last, owner, document.get(TOKEN, Number.class).longValue(),
                        forever ? HeldLock.UNTIL_RELEASED : left.longValue(),
                        document.getInteger(WAITERS, 0), acquiredAt == null ? null : acquiredAt.toInstant()));
            }
        }
        return new LockPage(held, pastPrefix || documents.size() < limit ? null : last);
    }

    /**
     * @return the smallest string above every string that starts with the prefix, in the server's order of strings
     *         (their UTF-8 bytes, which is the order of code points): the prefix with its last character increased;
     *         {@code null} if there is none, when the range is not bounded above
     */
    static String upperBound(String prefix) {
        if (prefix.isEmpty()) {
            return null;
        }
        char last = prefix.charAt(prefix.length() - 1);
        if (last == Character.MAX_VALUE || last == Character.MAX_LOW_SURROGATE || Character.isHighSurrogate(last)) {
            return null;
        }
        char above = last == Character.MIN_SURROGATE - 1 ? (char) (Character.MAX_SURROGATE + 1) : (char) (last + 1);
        return prefix.substring(0, prefix.length() - 1) + above;
    }
}
