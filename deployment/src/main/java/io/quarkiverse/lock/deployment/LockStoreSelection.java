package io.quarkiverse.lock.deployment;

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
     * @return the chosen store
     * @throws ConfigurationException if the configured store's client extension is missing
     */
    static LockStoreBuildItem select(LockProvider configured, boolean redisClientPresent) {
        switch (configured) {
            case AUTO:
                return redisClientPresent
                        ? new LockStoreBuildItem(LockProvider.REDIS, false)
                        : new LockStoreBuildItem(LockProvider.IN_MEMORY, true);
            case REDIS:
                if (!redisClientPresent) {
                    throw new ConfigurationException("quarkus.lock.provider is 'redis', but the Redis client "
                            + "extension is missing: add the io.quarkus:quarkus-redis-client dependency");
                }
                return new LockStoreBuildItem(LockProvider.REDIS, false);
            default:
                return new LockStoreBuildItem(configured, false);
        }
    }
}
