package io.quarkiverse.lock.deployment.spi;

/**
 * The lock stores {@code quarkus.lock.provider} can name.
 */
public enum LockProvider {
    /** The store whose client extension is present; the in-memory store when none is. */
    AUTO,
    /** Redis, through the Quarkus Redis client ({@code quarkus-redis-client}). */
    REDIS,
    /** MongoDB, through the Quarkus MongoDB client ({@code quarkus-mongodb-client}). */
    MONGODB,
    /** PostgreSQL, through the Quarkus reactive PostgreSQL client ({@code quarkus-reactive-pg-client}). */
    POSTGRESQL,
    /** This JVM's memory: locks do not exclude other instances. */
    IN_MEMORY;

    /**
     * @return the name used in configuration and messages, such as {@code in-memory}
     */
    public String configName() {
        return name().toLowerCase().replace('_', '-');
    }
}
