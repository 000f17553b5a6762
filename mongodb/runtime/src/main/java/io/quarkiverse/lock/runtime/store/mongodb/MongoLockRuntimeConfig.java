package io.quarkiverse.lock.runtime.store.mongodb;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Runtime configuration of the MongoDB store. The client is chosen at build time ({@link MongoLockBuildTimeConfig}).
 */
@ConfigMapping(prefix = "quarkus.lock.mongodb")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface MongoLockRuntimeConfig {

    /**
     * The database that holds the lock collection.
     */
    @WithDefault("quarkus_lock")
    String database();

    /**
     * The collection that holds one document per lock key.
     */
    @WithDefault("locks")
    String collection();

    /**
     * Whether the store creates its index (on {@code owner}, to find the locks an owner holds) at startup. Creating an
     * index that exists does nothing; turn this off when the application's database user may not create indexes.
     */
    @WithDefault("true")
    boolean createIndexes();

    /**
     * The write concern of every lock write: {@code majority} (an acknowledged acquisition survives a failover of the
     * replica set), or a number of members such as {@code 1} (faster, but a failover can roll back an acquisition
     * and so grant the lock twice). A number above 1 is checked against the deployment at startup and at each
     * readiness check; while the deployment cannot satisfy it, lock operations fail and readiness is down. Keeping a
     * waiter's place in line is always acknowledged by the primary alone.
     */
    @WithDefault("majority")
    String writeConcern();

    /**
     * Whether a release that leaves instances waiting is announced in {@code <collection>.releases} (one document per
     * lock key), which every instance watches with a change stream, so that the first waiter in line takes the lock
     * at once instead of at its next poll. Needs a replica set or a sharded cluster; on a standalone server, or for a
     * user that may not watch the collection, waiters poll.
     */
    @WithDefault("true")
    boolean releaseNotifications();
}
