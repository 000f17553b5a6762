package io.quarkiverse.lock.spi;

import java.time.Duration;

import io.quarkiverse.lock.LockPage;
import io.smallrye.mutiny.Uni;

/**
 * Where locks live: the one interface each backend (in-memory, Redis, ...) implements.
 * <p>
 * Keys are the user's lock keys, already validated; a store adds its own namespace. Owners are unguessable ids, one
 * per handle. Each operation is atomic in the store (one round trip). Implementations fail the returned {@link Uni}
 * with the client's error; the caller turns it into a {@code LockException} naming the key and the operation.
 */
public interface LockStore {

    /** The lease of a lock acquired forever: the store keeps it until it is released. */
    long NO_EXPIRY = 0;

    /**
     * How long a waiter keeps its place in a store's line without asking again, in milliseconds. The core's waiters
     * ask far more often (at most every 250 ms), so only a waiter that gave up without saying so, or whose instance
     * died, loses its place, and the next waiter then waits this long at most.
     */
    long PLACE_MILLIS = 1000;

    /**
     * @return a short name of the store for messages, such as {@code redis}
     */
    String name();

    /**
     * Acquires the lock for {@code owner} if nobody holds it (and, in a store that keeps a line of waiters, nobody
     * came earlier), and issues a fencing token strictly greater than every token issued before for this key.
     *
     * @param key the lock key
     * @param owner the owner id
     * @param leaseMillis the lease, positive, or {@link #NO_EXPIRY}
     * @param waiting {@code true} if the caller waits for the lock: a store that keeps a line of waiters puts it in
     *        line (or keeps its place) when the lock is not free for it
     * @return the outcome: acquired with its token, or held by another owner
     */
    Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting);

    /**
     * Gives the lock to {@code owner} whoever holds it, ahead of any line, with a fencing token strictly greater than
     * every token issued before for this key (an overriding acquisition, for administration). The previous holder
     * finds the lock lost at its next renewal or release.
     *
     * @param key the lock key
     * @param owner the owner id
     * @param leaseMillis the lease, positive, or {@link #NO_EXPIRY}
     * @return the outcome, always acquired
     */
    Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis);

    /**
     * Frees the lock whoever holds it, as a release by its holder would (a store with a line hands it to the first
     * waiter).
     *
     * @param key the lock key
     * @return {@code true} if someone held the lock, {@code false} if it was free
     */
    Uni<Boolean> forceRelease(String key);

    /**
     * Takes back an acquisition whose caller will never hold the lock: it gave up waiting, was cancelled, or its reply
     * was lost, late or failed. Removes {@code owner} from the line of waiters, and if the store granted {@code owner}
     * the lock (a hand-over to a waiter, or an attempt whose reply never reached the caller), releases it as the
     * holder's release would, so the next waiter gets it. Owner ids belong to one acquisition, so this never frees
     * another acquisition's hold. Idempotent, and safe for an acquisition the store never saw.
     *
     * @param key the lock key
     * @param owner the acquisition's owner id
     * @return {@code true} if {@code owner} held the lock and it was released, {@code false} otherwise
     */
    Uni<Boolean> takeBack(String key, String owner);

    /**
     * Deletes the lock if, and only if, {@code owner} holds it and its lease has not run out: compare and delete in
     * one atomic step.
     *
     * @param key the lock key
     * @param owner the owner id
     * @return {@code true} if the lock was held by {@code owner} and is now released, {@code false} otherwise
     */
    Uni<Boolean> release(String key, String owner);

    /**
     * Sets the lease of the lock to {@code leaseMillis} from now if, and only if, {@code owner} holds it.
     *
     * @param key the lock key
     * @param owner the owner id
     * @param leaseMillis the new lease, positive, or {@link #NO_EXPIRY} to keep the lock until it is released
     * @return {@code true} if the lease was renewed, {@code false} if {@code owner} no longer holds the lock
     */
    Uni<Boolean> renew(String key, String owner, long leaseMillis);

    /**
     * Ends a hold later instead of now (a release that keeps the lock for its minimum hold): sets the lease of the
     * lock to {@code leaseMillis} from now if, and only if, {@code owner} holds it, as {@link #renew} does, and no
     * renewal of {@code owner} extends that lease afterwards, not even one sent earlier that reaches the store later.
     * The default renews: right for a store whose commands on a lock reach it in the order they were sent.
     *
     * @param key the lock key
     * @param owner the owner id
     * @param leaseMillis how long the lock stays held from now, positive
     * @return {@code true} if the lease was set, {@code false} if {@code owner} no longer holds the lock
     */
    default Uni<Boolean> releaseAfter(String key, String owner, long leaseMillis) {
        return renew(key, owner, leaseMillis);
    }

    /**
     * @param key the lock key
     * @param owner the owner id
     * @return {@code true} if {@code owner} holds the lock now
     */
    Uni<Boolean> isHeld(String key, String owner);

    /**
     * Lists one page of the locks held now under this store's key prefix, for administration (the Dev UI, an
     * application's admin endpoint). Bounded: one call reads at most about {@code limit} entries of the store, never
     * the whole key space, and lists at most {@code limit} locks, which may be fewer than {@code limit} (even none)
     * while more pages follow. Locks released or whose lease ran out are not listed, nor keys outside the prefix.
     * Following the {@link LockPage#next() cursors} from {@code null} to the last page lists every lock held throughout
     * the listing once. Every in-tree store implements it; this default fails.
     *
     * @param cursor {@code null} for the first page, else the {@link LockPage#next()} of the page before, which only
     *        this kind of store understands
     * @param limit the most locks the page may list, positive
     * @return the page; fails with the client's error
     * @throws IllegalArgumentException at once, sending nothing, for a cursor of a shape this store never makes (a
     *         store whose cursor is a key may take any string)
     */
    default Uni<LockPage> listHeld(String cursor, int limit) {
        return Uni.createFrom().failure(new UnsupportedOperationException("The " + name()
                + " lock store cannot list the locks it holds"));
    }

    /**
     * Starts telling {@code listener} about the releases and hand-overs the store sees, from every instance, so that
     * a waiter wakes (or learns it holds the lock) at once instead of at its next poll. Notifications may be lost;
     * waiters keep polling as a fallback. Stores without notifications return a watch that does nothing.
     *
     * @param listener told of each release, on any thread
     * @return closes the watch
     */
    default AutoCloseable watchReleases(ReleaseListener listener) {
        return () -> {
        };
    }

    /**
     * @return {@code true} if every operation completes before it returns (an in-process store), so it cannot hang
     *         and needs no {@code quarkus.lock.operation-timeout}; {@code false} for stores reached over a network
     */
    default boolean answersAtOnce() {
        return false;
    }

    /**
     * An operation got no answer within {@code quarkus.lock.operation-timeout}. A store that talks over a connection
     * should replace it if nothing at all came back on it for that long: a connection that swallows traffic (a peer
     * gone without a word, a lost route) never fails by itself, and every later operation on it would time out too.
     * Stores without a connection do nothing.
     *
     * @param timeout the operation timeout
     */
    default void noAnswer(Duration timeout) {
    }

    /**
     * Checks that the store answers, for the readiness check.
     *
     * @return completes when the store answered; fails with the client's error otherwise
     */
    default Uni<Void> ping() {
        return Uni.createFrom().voidItem();
    }

    /**
     * Prepares the store when the application starts, such as creating indexes. Must not block; a failure that does
     * not stop the locks from working is logged.
     */
    default void start() {
    }

    /**
     * Frees what the store holds open (connections). Called at shutdown, after the registry stopped.
     */
    default void close() {
    }
}
