package io.quarkiverse.lock.runtime.waiting;

import java.util.function.LongConsumer;

/**
 * One waiting acquisition's place in the local queue of its key ({@link KeyState}).
 */
public final class Waiter {

    private final KeyState state;
    private final LocalLockStates states;
    final String owner;
    final LongConsumer onHandOver;
    /** The pause to end when woken; guarded by the state's lock. */
    Wakeup parked;
    /** A wake-up that came while the waiter was not paused; guarded by the state's lock. */
    boolean wakePending;

    Waiter(KeyState state, String owner, LongConsumer onHandOver, LocalLockStates states) {
        this.state = state;
        this.states = states;
        this.owner = owner;
        this.onHandOver = onHandOver;
    }

    /**
     * @return {@code true} if this waiter is first in line, the one that asks the store
     */
    public boolean isHead() {
        return state.isHead(this);
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
        state.park(this, wakeup);
    }

    KeyState leave(long nowNanos) {
        state.leave(this, nowNanos);
        return state;
    }

    /**
     * Forgets a pause that ended.
     *
     * @param wakeup the pause's wake-up
     */
    public void unpark(Wakeup wakeup) {
        state.unpark(this, wakeup);
    }
}
