package io.quarkiverse.lock.spi;

import io.quarkiverse.lock.runtime.waiting.LocalLockStates;

/**
 * The local state one application keeps for the keys it waits on: each key's line of local waiters, and what wakes
 * them. Every registry of an application shares it; {@link StandaloneLockRegistry}s over a store whose instances all
 * live in this JVM (the in-memory store) must share one too, since such a store keeps no line and sends no release
 * notification of its own. Registries standing for separate applications each keep their own (the default).
 */
public final class SharedLocalState {

    private final LocalLockStates states = new LocalLockStates();

    /**
     * Makes an empty state: nobody waits yet.
     */
    public SharedLocalState() {
    }

    LocalLockStates states() {
        return states;
    }
}
