package io.quarkiverse.lock.deployment.spi;

import io.quarkus.builder.item.SimpleBuildItem;

/**
 * The store the build chose for the locks.
 */
public final class LockStoreBuildItem extends SimpleBuildItem {

    private final LockProvider provider;
    private final boolean chosenByDefault;

    /**
     * @param provider the chosen store, never {@link LockProvider#AUTO}
     * @param chosenByDefault {@code true} when nothing was configured and no store client extension is present
     */
    public LockStoreBuildItem(LockProvider provider, boolean chosenByDefault) {
        this.provider = provider;
        this.chosenByDefault = chosenByDefault;
    }

    /**
     * @return the chosen store
     */
    public LockProvider provider() {
        return provider;
    }

    /**
     * @return {@code true} when the in-memory store was chosen only because no store client extension is present
     */
    public boolean chosenByDefault() {
        return chosenByDefault;
    }
}
