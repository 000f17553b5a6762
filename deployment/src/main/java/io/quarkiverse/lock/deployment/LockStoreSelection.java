package io.quarkiverse.lock.deployment;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import io.quarkiverse.lock.deployment.spi.LockProvider;
import io.quarkiverse.lock.deployment.spi.LockStoreBuildItem;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Chooses the store from {@code quarkus.lock.provider} and the client extensions present.
 */
final class LockStoreSelection {

    private LockStoreSelection() {
    }

    /**
     * @param configured the configured provider
     * @param redisClientPresent whether {@code quarkus-redis-client} is present
     * @param mongoClientPresent whether {@code quarkus-mongodb-client} is present
     * @param postgresClientPresent whether {@code quarkus-reactive-pg-client} is present
     * @return the chosen store
     * @throws ConfigurationException if the configured store's client extension is missing, or if {@code auto} finds
     *         several store clients and cannot know which one the locks belong in
     */
    static LockStoreBuildItem select(LockProvider configured, boolean redisClientPresent, boolean mongoClientPresent,
            boolean postgresClientPresent) {
        switch (configured) {
            case AUTO:
                List<LockProvider> present = new ArrayList<>();
                if (redisClientPresent) {
                    present.add(LockProvider.REDIS);
                }
                if (mongoClientPresent) {
                    present.add(LockProvider.MONGODB);
                }
                if (postgresClientPresent) {
                    present.add(LockProvider.POSTGRESQL);
                }
                if (present.size() > 1) {
                    throw new ConfigurationException(present.stream().map(LockStoreSelection::clientExtension)
                            .collect(Collectors.joining(" and ")) + " are present, so Quarkus Lock cannot choose a "
                            + "store: set quarkus.lock.provider to " + present.stream().map(LockProvider::configName)
                                    .collect(Collectors.joining(" or ")));
                }
                return present.isEmpty()
                        ? new LockStoreBuildItem(LockProvider.IN_MEMORY, true)
                        : new LockStoreBuildItem(present.get(0), false);
            case REDIS:
                requireClient(redisClientPresent, configured, "io.quarkus:quarkus-redis-client");
                return new LockStoreBuildItem(configured, false);
            case MONGODB:
                requireClient(mongoClientPresent, configured, "io.quarkus:quarkus-mongodb-client");
                return new LockStoreBuildItem(configured, false);
            case POSTGRESQL:
                requireClient(postgresClientPresent, configured, "io.quarkus:quarkus-reactive-pg-client");
                return new LockStoreBuildItem(configured, false);
            default:
                return new LockStoreBuildItem(configured, false);
        }
    }

    private static String clientExtension(LockProvider provider) {
        switch (provider) {
            case REDIS:
                return "quarkus-redis-client";
            case MONGODB:
                return "quarkus-mongodb-client";
            default:
                return "quarkus-reactive-pg-client";
        }
    }

    private static void requireClient(boolean present, LockProvider provider, String dependency) {
        if (!present) {
            throw new ConfigurationException("quarkus.lock.provider is '" + provider.configName() + "', but its "
                    + "client extension is missing: add the " + dependency + " dependency");
        }
    }
}
