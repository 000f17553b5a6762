package io.quarkiverse.lock.runtime.store.mongodb;

import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.LEASE_MILLIS;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.LEASE_STARTED_AT;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.LINE;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.OWNER;
import static io.quarkiverse.lock.runtime.store.mongodb.MongoLockDocuments.SEEN_AT;

import java.util.Date;
import java.util.List;

import org.bson.Document;

import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;

/**
 * The line of waiting instances in a lock document: keeping a place, joining at the end, taking out a first waiter
 * whose place lapsed, leaving.
 * <p>
 * A place decides nothing about who holds the lock (only an acquisition with the configured write concern does), and
 * a place lost in a failover costs its waiter only its turn. So these writes are acknowledged by the primary alone
 * ({@code w: 1}): a waiter polling every 64 ms does not wait for a majority of the replica set at each poll.
 */
final class MongoLine {

    private static final Document ACKNOWLEDGED_BY_PRIMARY = new Document("w", 1);
    private static final long HELD_UNTIL_RELEASED = Integer.MAX_VALUE;

    private final MongoCommands commands;
    private final String collection;

    MongoLine(MongoCommands commands, String collection) {
        this.commands = commands;
        this.collection = collection;
    }

    /**
     * What a waiter learnt at a visit of the lock's line.
     *
     * @param mayTake the lock was free at the visit and the waiter may take it: it is first in line, or the first
     *        waiter's place lapsed
     * @param missing the lock document does not exist (it was deleted), so the waiter could not join its line
     * @param holderRemainingMillis how long the holder's lease still ran at the visit, by the server's clock, or -1
     *        when the lock was free (or the visit could not tell)
     */
    record Visit(boolean mayTake, boolean missing, long holderRemainingMillis) {
    }

    /**
     * Keeps the waiter's place in line, joining at the end if it has none, and takes out a first waiter whose place
     * lapsed. The server's time of this visit is the waiter's new {@code seenAt}, which also tells whether the lock is
     * free now. Returns what the visit found.
     */
    Uni<Visit> visit(String id, String owner) {
        return keepPlace(id, owner, true);
    }

    /**
     * Takes a waiter out of the line. Returns the lock document as it was before (its owner and line), or {@code null}
     * if the waiter was not in line.
     */
    Uni<Document> leave(String id, String owner) {
        Document command = MongoCommands.findAndModify(collection, MongoLockDocuments.inLine(id, owner),
                MongoLockDocuments.leaveLine(owner), ACKNOWLEDGED_BY_PRIMARY, LINE, OWNER);
        return commands.write(command).map(reply -> reply.get("value", Document.class));
    }

    private Uni<Visit> keepPlace(String id, String owner, boolean mayJoin) {
        Document command = MongoCommands.findAndModify(collection, MongoLockDocuments.inLine(id, owner),
                MongoLockDocuments.placeKept(), ACKNOWLEDGED_BY_PRIMARY, LINE, OWNER, LEASE_STARTED_AT,
                LEASE_MILLIS).append("new", true);
        return commands.write(command).flatMap(reply -> {
            Document lock = reply.get("value", Document.class);
            if (lock != null) {
                return seen(id, owner, lock);
            }
            if (!mayJoin) {
                // taken out between joining and this visit; the next visit joins again
                return Uni.createFrom().item(new Visit(false, false, -1));
            }
            return commands.write(MongoCommands.updateOne(collection, MongoLockDocuments.notInLine(id, owner),
                    MongoLockDocuments.joinLine(owner), ACKNOWLEDGED_BY_PRIMARY))
                    .flatMap(joined -> joined.getInteger("n", 0) == 1 ? keepPlace(id, owner, false)
                            : Uni.createFrom().item(new Visit(false, true, -1)));
        });
    }

    private Uni<Visit> seen(String id, String owner, Document lock) {
        List<Document> line = lock.getList(LINE, Document.class);
        Date now = null;
        for (Document place : line) {
            if (owner.equals(place.getString(OWNER))) {
                now = place.getDate(SEEN_AT);
            }
        }
        long remaining = holderRemainingMillis(lock, now);
        boolean free = remaining == 0;
        // A free lock promised to an earlier waiter gives no hint: its waiter takes it within a poll or lapses.
        long hint = free ? -1 : remaining;
        Document first = line.get(0);
        String firstOwner = first.getString(OWNER);
        if (owner.equals(firstOwner)) {
            return Uni.createFrom().item(new Visit(free, false, hint));
        }
        if (first.getDate(SEEN_AT).getTime() + LockStore.PLACE_MILLIS >= now.getTime()) {
            return Uni.createFrom().item(new Visit(false, false, hint));
        }
        // The server checks the lapse again, by its clock, as it takes the first waiter out.
        return commands.write(MongoCommands.updateOne(collection, MongoLockDocuments.lapsedFirst(id, firstOwner),
                MongoLockDocuments.leaveLine(firstOwner), ACKNOWLEDGED_BY_PRIMARY))
                .map(ignored -> new Visit(free, false, hint));
    }

    /**
     * How long the holder's lease still runs at {@code now}: 0 when the lock is free, a very long time when it is held
     * until released.
     */
    private static long holderRemainingMillis(Document lock, Date now) {
        if (lock.get(OWNER) == null) {
            return 0;
        }
        long leaseMillis = ((Number) lock.get(LEASE_MILLIS)).longValue();
        if (leaseMillis == LockStore.NO_EXPIRY) {
            return HELD_UNTIL_RELEASED;
        }
        return Math.max(0, lock.getDate(LEASE_STARTED_AT).getTime() + leaseMillis - now.getTime());
    }
}
