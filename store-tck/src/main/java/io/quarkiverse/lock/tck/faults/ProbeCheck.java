package io.quarkiverse.lock.tck.faults;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.tck.StoreRecovery;

/**
 * Checks, before a run, that a section log's hold probe reads the store's real locks, so that a store whose layout
 * changed fails the run instead of passing it with a probe that never finds a hold.
 */
public final class ProbeCheck {

    private static final String KEY = "probe-check";

    private ProbeCheck() {
    }

    /**
     * Acquires a lock (trying again while the store fails, for up to {@link FaultFixture#TIMEOUT}), stamps a section start
     * while it is held and again once it is released.
     *
     * @param registry one of the run's registries, on the store
     * @param log the store's section log
     * @param store the store's name, for the message
     * @throws io.quarkiverse.lock.LockException if the store kept failing
     * @throws IllegalStateException if interrupted, if the lock could not be acquired, or the probe did not see it held and
     *         then free
     */
    public static void assertTheProbeReadsTheStore(LockRegistry registry, SectionLog log, String store) {
        ReactiveDistributedLock lock = registry.obtain(KEY, LockType.SINGLE_ENTRANT);
        if (!acquired(lock)) {
            throw new IllegalStateException("Could not acquire the probe check's lock on the " + store + " store");
        }
        long token = lock.fencingToken().orElseThrow();
        int whileHeld = log.start(KEY, token).await().atMost(FaultFixture.TIMEOUT).held();
        lock.release().await().atMost(FaultFixture.TIMEOUT);
        int afterRelease = log.start(KEY, token).await().atMost(FaultFixture.TIMEOUT).held();
        if (whileHeld != Section.HELD || afterRelease != Section.NOT_HELD) {
            throw new IllegalStateException("The section log's probe does not read the " + store + " store's locks "
                    + "(held: " + whileHeld + ", after release: " + afterRelease + "): update it to the store's "
                    + "layout");
        }
    }

    /** The store's first operations may time out while its connections and schema are made. */
    private static boolean acquired(ReactiveDistributedLock lock) {
        try {
            return StoreRecovery.await(() -> lock.acquireOnce().await().atMost(FaultFixture.TIMEOUT),
                    acquired -> acquired, FaultFixture.TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while acquiring the probe check's lock", e);
        }
    }
}
