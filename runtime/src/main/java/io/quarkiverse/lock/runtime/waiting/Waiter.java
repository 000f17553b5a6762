package io.quarkiverse.lock.runtime.waiting;

import java.util.function.LongConsumer;

/**
 * One waiting acquisition's place in the local line of its key ({@link LocalLine}).
 */
public final class Waiter {

    private final LocalLine line;
    private final LocalLockStates states;
    private final String owner;
    private final LongConsumer onHandOver;
    private final int placeAtJoin;
    /** The pause to end when woken; guarded by the line's monitor. */
    Wakeup parked;
    /** A wake-up that came while the waiter was not paused; guarded by the line's monitor. */
    boolean wakePending;

    Waiter(LocalLine line, String owner, LongConsumer onHandOver, LocalLockStates states, int placeAtJoin) {
        this.line = line;
        this.placeAtJoin = placeAtJoin;
        this.states = states;
        this.owner = owner;
        this.onHandOver = onHandOver;
    }

    String owner() {
        return owner;
    }

    /** Tells the acquisition that a release handed it the lock, with this fencing token. */
    void handOver(long token) {
        onHandOver.accept(token);
    }

    /**
     * @return this waiter's place in the line when it joined: 1 when it was first
     */
    public int placeAtJoin() {
        return placeAtJoin;
    }

    /**
     * @return {@code true} if this waiter is first in line, the one that asks the store
     */
    public boolean isHead() {
        return line.isHead(this);
    }

    /**
     * @return {@code true} if the store announces every release now ({@link LocalLockStates#everyReleaseAnnounced()}),
     *         so that this waiter hears its turn without polling; {@code false} if it must poll to be sure not to
     *         miss it
     */
    public boolean hearsEveryRelease() {
        return states.everyReleaseAnnounced();
    }

    /**
     * Pauses the waiter until {@code wakeup} fires: by its timer, a local release, or this waiter's turn coming. Fires
     * it at once if a wake-up came since the last pause.
     *
     * @param wakeup ends the pause
     */
    public void park(Wakeup wakeup) {
        line.park(this, wakeup);
    }

    LocalLine leave(long nowNanos) {
        line.leave(this, nowNanos);
        return line;
    }

    /**
     * Forgets a pause that ended.
     *
     * @param wakeup the pause's wake-up
     */
    public void unpark(Wakeup wakeup) {
        line.unpark(this, wakeup);
    }
}
