package io.quarkiverse.lock.runtime.waiting;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ends one pause of a waiting acquisition: fired by its timer, or earlier by a local release. Fires at most once.
 */
public final class Wakeup {

    private final AtomicBoolean fired = new AtomicBoolean();
    private final Runnable action;

    /**
     * @param action what firing does, run at most once
     */
    public Wakeup(Runnable action) {
        this.action = action;
    }

    /**
     * Runs the action unless it already ran.
     *
     * @return {@code true} if this call ran it
     */
    public boolean fire() {
        if (fired.compareAndSet(false, true)) {
            action.run();
            return true;
        }
        return false;
    }
}
