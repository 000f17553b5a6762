package io.quarkiverse.lock.spi;

/**
 * What a store tells the application about releases, so that waiters need not wait for their next poll.
 */
public interface ReleaseListener {

    /**
     * A lock was released and nobody was in line for it.
     *
     * @param key the lock key
     */
    void released(String key);

    /**
     * A lock was released and handed straight to the first waiter in line. The waiting acquisition takes the message
     * as its grant, without asking the store again, only if the store's answers to its attempts show the hand-over
     * came after all of them ({@link AcquireResult#issuedTokensUpTo()} below {@code token}) and none is on its way;
     * otherwise it asks the store, which answers a lock handed to it with its current token.
     *
     * @param key the lock key
     * @param owner the owner id of the waiter that now holds it
     * @param token the fencing token of its hold
     */
    void handedOver(String key, String owner, long token);

    /**
     * Notifications may have been missed (the channel was down): every waiter should look again now.
     */
    void mayHaveMissed();

    /**
     * Says whether the store now announces every release and hand-over to this listener, so that a waiter need only
     * poll as a rare fallback (and for a lease that ends by expiry, which no store announces). A store calls it with
     * {@code true} once its channel is up, before {@link #mayHaveMissed()}, and with {@code false} as soon as it may
     * miss an announcement (its channel is down, or the watch closed). Stores that never call it leave waiters polling
     * at their usual pace.
     *
     * @param every {@code true} if every release is announced from now on, {@code false} if some may not be
     */
    default void announcesEveryRelease(boolean every) {
    }
}
