package io.quarkiverse.lock.spi;

import java.time.Duration;

/**
 * The settings of a {@link StandaloneLockRegistry}: what {@code quarkus.lock.*} configures in an application, as one
 * immutable value. Start from {@link #defaults()} and change what differs:
 *
 * <pre>
 * LockRegistrySettings settings = LockRegistrySettings.defaults().withKeyPrefix("orders:")
 *         .withOperationTimeout(Duration.ofSeconds(1));
 * </pre>
 *
 * @param expireAfter the lease of an acquisition that names none ({@code quarkus.lock.expire-after}); positive
 * @param waitTimeout how long {@code acquire()} waits when it names no wait ({@code quarkus.lock.wait-timeout}); not
 *        negative
 * @param evictIdleInterval how often the local state of keys nobody waits on is dropped, and how long it must have been
 *        idle ({@code quarkus.lock.expire-evict-idle}); positive
 * @param keyPrefix the namespace of the keys in the store ({@code quarkus.lock.key-prefix}); the registry does not
 *        read it: a store made for the registry should be given it
 * @param renewLease whether acquisitions renew their lease while held unless a handle says otherwise
 *        ({@code quarkus.lock.renew-lease})
 * @param operationTimeout how long one store operation may take before it fails with a {@code LockException}
 *        ({@code quarkus.lock.operation-timeout}); positive; a store should bound its own client calls by it too
 */
public record LockRegistrySettings(Duration expireAfter, Duration waitTimeout, Duration evictIdleInterval,
        String keyPrefix, boolean renewLease, Duration operationTimeout) {

    private static final LockRegistrySettings DEFAULTS = new LockRegistrySettings(Duration.ofSeconds(10),
            Duration.ofSeconds(10), Duration.ofSeconds(1), "lock:", false, Duration.ofSeconds(5));

    /**
     * Checks every setting.
     *
     * @throws IllegalArgumentException if a setting is {@code null}, a lease, interval or timeout is not positive, or
     *         the wait is negative
     */
    public LockRegistrySettings {
        positive("expireAfter", expireAfter);
        if (waitTimeout == null || waitTimeout.isNegative()) {
            throw new IllegalArgumentException("waitTimeout must not be null or negative, but is " + waitTimeout);
        }
        positive("evictIdleInterval", evictIdleInterval);
        if (keyPrefix == null) {
            throw new IllegalArgumentException("keyPrefix must not be null");
        }
        positive("operationTimeout", operationTimeout);
    }

    private static void positive(String name, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive, but is " + value);
        }
    }

    /**
     * @return the settings of an application that configures nothing: a 10 s lease and wait, idle state evicted every
     *         second, the prefix {@code lock:}, no lease renewal, and 5 s per store operation
     */
    public static LockRegistrySettings defaults() {
        return DEFAULTS;
    }

    /**
     * @param lease the default lease, positive
     * @return these settings with that default lease
     * @throws IllegalArgumentException if it is not positive
     */
    public LockRegistrySettings withExpireAfter(Duration lease) {
        return new LockRegistrySettings(lease, waitTimeout, evictIdleInterval, keyPrefix, renewLease, operationTimeout);
    }

    /**
     * @param wait the default wait, not negative
     * @return these settings with that default wait
     * @throws IllegalArgumentException if it is negative
     */
    public LockRegistrySettings withWaitTimeout(Duration wait) {
        return new LockRegistrySettings(expireAfter, wait, evictIdleInterval, keyPrefix, renewLease, operationTimeout);
    }

    /**
     * @param interval the idle-state eviction period, positive
     * @return these settings with that period
     * @throws IllegalArgumentException if it is not positive
     */
    public LockRegistrySettings withEvictIdleInterval(Duration interval) {
        return new LockRegistrySettings(expireAfter, waitTimeout, interval, keyPrefix, renewLease, operationTimeout);
    }

    /**
     * @param prefix the namespace of the keys in the store
     * @return these settings with that prefix
     * @throws IllegalArgumentException if it is {@code null}
     */
    public LockRegistrySettings withKeyPrefix(String prefix) {
        return new LockRegistrySettings(expireAfter, waitTimeout, evictIdleInterval, prefix, renewLease,
                operationTimeout);
    }

    /**
     * @param renew whether acquisitions renew their lease by default
     * @return these settings with that choice
     */
    public LockRegistrySettings withRenewLease(boolean renew) {
        return new LockRegistrySettings(expireAfter, waitTimeout, evictIdleInterval, keyPrefix, renew, operationTimeout);
    }

    /**
     * @param timeout how long one store operation may take, positive
     * @return these settings with that timeout
     * @throws IllegalArgumentException if it is not positive
     */
    public LockRegistrySettings withOperationTimeout(Duration timeout) {
        return new LockRegistrySettings(expireAfter, waitTimeout, evictIdleInterval, keyPrefix, renewLease, timeout);
    }
}
