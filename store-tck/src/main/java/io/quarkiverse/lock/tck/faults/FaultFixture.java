package io.quarkiverse.lock.faults;

import java.util.List;
import java.util.Map;

import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;

/**
 * A store the randomized fault test runs on: the instances that share it (each its own registry, and for a store on a
 * server its own faulty connection), a section log on the store's clock, the faults, and what is left held after the
 * run. Binding another store (MongoDB through its own proxies) is one more implementation.
 */
interface StoreUnderTest extends AutoCloseable {

    /**
     * @return the store's name, for the report
     */
    String name();

    /**
     * Starts the instances.
     *
     * @param instances how many instances are asked for (a store local to one JVM may start one)
     * @param settings the lock settings every instance runs with
     * @return the instances' registries, started
     */
    List<DefaultLockRegistry> start(int instances, LockSettings settings);

    /**
     * @return the section log
     */
    SectionLog log();

    /**
     * Starts injecting faults at random, until {@link #stopFaults()}; a store without a proxy injects none.
     *
     * @param seed the seed of the faults' randomness
     * @param timeline where each fault is noted
     */
    void startFaults(long seed, FaultTimeline timeline);

    /**
     * Stops injecting faults and ends every dead connection, so the instances reconnect.
     */
    void stopFaults();

    /**
     * @return how many faults of each kind were injected
     */
    Map<String, Long> faultCounts();

    /**
     * @param keys the lock keys the run used
     * @return a description of every lock (and any other entry but fencing counters) still in the store
     */
    List<String> leftInStore(List<String> keys);

    /**
     * Closes the instances, the proxies and the server, whatever state they are in.
     */
    @Override
    void close();
}
