package io.quarkiverse.lock.tck.faults;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.spi.LockRegistrySettings;

/**
 * A store's binding of the randomized fault harness ({@link RandomizedFaultRun}): the instances that share the store
 * (each its own registry, for a store on a server each over its own faulty connection), a section log on the store's
 * clock, the faults, and what is left held after the run. A store binds the harness with one implementation and one
 * test that runs it:
 *
 * <pre>
 * &#64;Test
 * void noLockIsHeldTwiceNorLeftHeld() throws InterruptedException {
 *     RandomizedFaultRun.run(new MyStoreFaultFixture(), FaultRunSettings.fromSystemProperties()).assertFaultless();
 * }
 * </pre>
 *
 * A fixture builds its registries with {@link io.quarkiverse.lock.spi.StandaloneLockRegistry}, and may inject no
 * faults at all (a store that lives in this JVM): the run then checks the registry's own concurrency.
 */
public interface FaultFixture extends AutoCloseable {

    /** How long the harness, and a fixture, waits for one answer of a registry, the store or the log. */
    Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * @return the store's name, for the report
     */
    String name();

    /**
     * Starts the instances.
     *
     * @param instances how many instances are asked for (a store local to one JVM may start one)
     * @param settings the settings every instance runs with; the store should use their key prefix and operation
     *        timeout
     * @return the instances' registries, started; the fixture closes them in {@link #close()}
     */
    List<? extends LockRegistry> start(int instances, LockRegistrySettings settings);

    /**
     * @return the section log, once {@link #start} returned
     */
    SectionLog log();

    /**
     * Starts injecting faults at random, until {@link #stopFaults()}. Injects none by default: a store with nothing
     * between its instances and their store (the in-memory store) has no faults to inject.
     *
     * @param seed the seed of the faults' randomness
     * @param timeline where each fault is noted
     */
    default void startFaults(long seed, FaultTimeline timeline) {
    }

    /**
     * Stops injecting faults and ends every dead connection, so the instances reconnect. Does nothing by default.
     */
    default void stopFaults() {
    }

    /**
     * @return how many faults of each kind were injected; empty by default
     */
    default Map<String, Long> faultCounts() {
        return Map.of();
    }

    /**
     * Waits, once the operations ended and the faults stopped, until no instance has a store operation still waiting
     * to be sent or settling (a store that orders its operations per key may send a late acquisition, and the
     * take-back queued behind it, seconds after its caller gave up): the run then lets the longest lease run out,
     * so that what {@link #leftInStore} finds is left for good, not a late grant whose take-back is still queued.
     * Returns at once by default (a store that sends every operation as it is asked).
     *
     * @param atMost how long to wait
     * @return {@code true} if every instance went quiet, {@code false} if one still had operations queued after
     *         {@code atMost}
     * @throws InterruptedException if interrupted while waiting
     */
    default boolean awaitQuiet(Duration atMost) throws InterruptedException {
        return true;
    }

    /**
     * The store's own record of what changed a key, where the fixture keeps one (a diagnostic: an audit of the
     * store's writes). The run prints it, with the sections and faults of the same span, for every violation. Empty
     * by default.
     *
     * @param key a lock key of the run
     * @param from the start of the span, microseconds on the store's clock
     * @param to its end
     * @return one event per change, in order: when, the instance that made it ({@code -1} if unknown), and what
     */
    default List<FaultTimeline.Event> storeChanges(String key, long from, long to) {
        return List.of();
    }

    /**
     * @param keys the lock keys the run used
     * @return a description of every lock (and any other entry but fencing counters) still in the store; empty when
     *         nothing is left
     */
    List<String> leftInStore(List<String> keys);

    /**
     * Closes the instances, the proxies and the server, whatever state they are in.
     */
    @Override
    void close();
}
