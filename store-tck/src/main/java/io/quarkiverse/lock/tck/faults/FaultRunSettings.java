package io.quarkiverse.lock.tck.faults;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The size of a randomized fault run, read from system properties: {@code -Dfaults.seed=} (the seed, printed by every
 * run), {@code -Dfaults.operations=} (how many operations: 8,000 by default, fewer where a store's binding asks for
 * fewer) and {@code -Dfaults.soak=true} (a much longer run: 400,000 operations by default, up to two hours). To narrow a
 * failure down, {@code -Dfaults.without=}
 * leaves operations out (names of {@link FaultOperation}, comma-separated) and
 * {@code -Dfaults.inject=false} runs without network faults.
 *
 * @param seed the seed of every random choice
 * @param operations how many operations to run, in all
 * @param soak whether this is a soak run
 * @param instances how many instances share the store
 * @param workersPerInstance how many workers each instance runs at once
 * @param keys how many lock keys the workers contend for
 * @param maxDuration when the operations stop even if fewer ran
 * @param without the operations left out
 * @param injectFaults whether the network faults are injected
 */
public record FaultRunSettings(long seed, int operations, boolean soak, int instances, int workersPerInstance,
        int keys, Duration maxDuration, Set<FaultOperation> without, boolean injectFaults) {

    /** The seed when none is given. */
    public static final long DEFAULT_SEED = 20_261_130L;

    /** How many operations a run makes when none is asked for, unless its store's binding says otherwise. */
    public static final int DEFAULT_OPERATIONS = 8_000;

    /**
     * @return the settings the system properties ask for, with {@link #DEFAULT_OPERATIONS} operations unless told
     * @throws IllegalArgumentException if {@code faults.without} names no operation
     */
    public static FaultRunSettings fromSystemProperties() {
        return fromSystemProperties(DEFAULT_OPERATIONS);
    }

    /**
     * @param defaultOperations how many operations a run that is not a soak makes unless {@code faults.operations}
     *        says: fewer for a store whose operations are slower, so that its run in CI stays short
     * @return the settings the system properties ask for
     * @throws IllegalArgumentException if {@code faults.without} names no operation
     */
    public static FaultRunSettings fromSystemProperties(int defaultOperations) {
        boolean soak = Boolean.getBoolean("faults.soak");
        Set<FaultOperation> without = EnumSet.noneOf(FaultOperation.class);
        for (String name : System.getProperty("faults.without", "").split(",")) {
            if (!name.isBlank()) {
                without.add(FaultOperation.valueOf(name.trim().toUpperCase(Locale.ROOT)));
            }
        }
        return new FaultRunSettings(Long.getLong("faults.seed", DEFAULT_SEED),
                Integer.getInteger("faults.operations", soak ? 400_000 : defaultOperations), soak, 4, 10, 6,
                soak ? Duration.ofHours(2) : Duration.ofMinutes(4), without,
                Boolean.parseBoolean(System.getProperty("faults.inject", "true")));
    }
}
