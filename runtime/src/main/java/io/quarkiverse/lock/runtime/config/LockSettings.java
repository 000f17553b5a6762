package io.quarkiverse.lock.runtime.config;

import java.time.Duration;

import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * The validated, immutable settings the locks run with, read once from {@link LockRuntimeConfig}.
 *
 * @param defaultLease lease of an acquisition that names none ({@code quarkus.lock.expire-after})
 * @param defaultWait wait of an acquisition that names none ({@code quarkus.lock.wait-timeout})
 * @param evictIdleInterval period of the idle-state evictor ({@code quarkus.lock.expire-evict-idle})
 * @param keyPrefix namespace of the keys in the store ({@code quarkus.lock.key-prefix})
 * @param renewLease whether acquisitions renew their lease while held ({@code quarkus.lock.renew-lease})
 * @param operationTimeout how long one store operation may take ({@code quarkus.lock.operation-timeout})
 */
public record LockSettings(Duration defaultLease, Duration defaultWait, Duration evictIdleInterval, String keyPrefix,
        boolean renewLease, Duration operationTimeout) {

    /**
     * Validates the configuration and captures it.
     *
     * @param config the runtime configuration
     * @return the settings
     * @throws ConfigurationException naming the property whose value is invalid
     */
    public static LockSettings from(LockRuntimeConfig config) {
        return new LockSettings(
                positive("quarkus.lock.expire-after", config.expireAfter()),
                notNegative("quarkus.lock.wait-timeout", config.waitTimeout()),
                positive("quarkus.lock.expire-evict-idle", config.expireEvictIdle()),
                config.keyPrefix(),
                config.renewLease(),
                positive("quarkus.lock.operation-timeout", config.operationTimeout()));
    }

    /**
     * Checks that a duration property is positive.
     *
     * @param property the property's name, for the error message
     * @param value the value
     * @return the value
     * @throws ConfigurationException if the value is zero or negative
     */
    public static Duration positive(String property, Duration value) {
        if (value.isZero() || value.isNegative()) {
            throw new ConfigurationException(property + " must be positive, but is " + value);
        }
        return value;
    }

    private static Duration notNegative(String property, Duration value) {
        if (value.isNegative()) {
            throw new ConfigurationException(property + " must not be negative, but is " + value);
        }
        return value;
    }
}
