package io.quarkiverse.lock.deployment.spi;

import java.util.Locale;
import java.util.Objects;

import io.quarkus.builder.item.MultiBuildItem;

/**
 * A lock store present in the application: each store extension produces one, unconditionally, and Quarkus Lock
 * chooses among them ({@link LockStoreBuildItem}) by {@code quarkus.lock.provider}, or, when that is {@code auto}, by
 * {@link #autoPriority()}.
 * <p>
 * A store extension comes with the client extension it works with, so its presence is the presence of that client:
 *
 * <pre>
 * &#64;BuildStep
 * LockStoreImplementationBuildItem implementation() {
 *     return new LockStoreImplementationBuildItem("mongodb", "quarkus-mongodb-client",
 *             LockStoreImplementationBuildItem.DEDICATED_CLIENT);
 * }
 * </pre>
 */
public final class LockStoreImplementationBuildItem extends MultiBuildItem {

    /**
     * The priority of a store whose client an application adds for its locks as readily as for its data (Redis,
     * MongoDB, a reactive SQL client): {@code auto} chooses it over any store of lower priority.
     */
    public static final int DEDICATED_CLIENT = 100;

    /**
     * The priority of a store on a client an application usually has for its own data (a JDBC datasource): {@code auto}
     * chooses it only when no store of {@link #DEDICATED_CLIENT} priority is present.
     */
    public static final int SHARED_CLIENT = 50;

    /**
     * The priority of a store whose locks are local to one JVM: {@code auto} chooses it only when no other store is
     * present, and the application is warned at startup.
     */
    public static final int LOCAL_ONLY = 0;

    private final String name;
    private final String clientExtension;
    private final int autoPriority;

    /**
     * @param name the store's name, the value of {@code quarkus.lock.provider} that chooses it, such as
     *        {@code mongodb}: lower case, not {@code auto}
     * @param clientExtension the client extension the store works with, as messages name it to the user, such as
     *        {@code quarkus-mongodb-client}
     * @param autoPriority how {@code auto} ranks the store: {@link #DEDICATED_CLIENT}, {@link #SHARED_CLIENT},
     *        {@link #LOCAL_ONLY}, or a value between them
     * @throws IllegalArgumentException if the name is blank, not lower case, or {@code auto}
     */
    public LockStoreImplementationBuildItem(String name, String clientExtension, int autoPriority) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || !name.equals(name.toLowerCase(Locale.ROOT)) || "auto".equals(name)) {
            throw new IllegalArgumentException("A lock store's name must be lower case, not blank and not 'auto', "
                    + "but is '" + name + "'");
        }
        this.name = name;
        this.clientExtension = Objects.requireNonNull(clientExtension, "clientExtension");
        this.autoPriority = autoPriority;
    }

    /**
     * @return the store's name, the value of {@code quarkus.lock.provider} that chooses it
     */
    public String name() {
        return name;
    }

    /**
     * @return the client extension the store works with, as messages name it
     */
    public String clientExtension() {
        return clientExtension;
    }

    /**
     * @return how {@code auto} ranks the store: the highest wins, and a tie at the highest is a build error that asks
     *         the user to choose
     */
    public int autoPriority() {
        return autoPriority;
    }

    /**
     * @return {@code true} if the store's locks are local to one JVM ({@link #LOCAL_ONLY})
     */
    public boolean localOnly() {
        return autoPriority <= LOCAL_ONLY;
    }

    @Override
    public String toString() {
        return name + " (" + clientExtension + ")";
    }
}
