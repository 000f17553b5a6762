package io.quarkiverse.lock.deployment.spi;

import java.util.Objects;

import io.quarkus.builder.item.SimpleBuildItem;

/**
 * The store the build chose for the locks, among the {@link LockStoreImplementationBuildItem}s present. A store
 * extension registers its beans only when {@link #is(String)} names it.
 */
public final class LockStoreBuildItem extends SimpleBuildItem {

    private final String name;
    private final boolean chosenByDefault;

    /**
     * @param name the chosen store's name
     * @param chosenByDefault {@code true} when nothing was configured and only a store whose locks are local to this
     *        JVM is present
     */
    public LockStoreBuildItem(String name, boolean chosenByDefault) {
        this.name = Objects.requireNonNull(name, "name");
        this.chosenByDefault = chosenByDefault;
    }

    /**
     * @return the chosen store's name, such as {@code in-memory}
     */
    public String name() {
        return name;
    }

    /**
     * @param storeName a store's name
     * @return {@code true} if the build chose that store
     */
    public boolean is(String storeName) {
        return name.equals(storeName);
    }

    /**
     * @return {@code true} when the store was chosen only because no store of a network client is present, so the
     *         locks are local to this JVM without the user having asked for it
     */
    public boolean chosenByDefault() {
        return chosenByDefault;
    }
}
