package io.quarkiverse.lock.tck.faults;

import org.junit.jupiter.api.Test;

/**
 * The randomized test on the in-memory store: one registry, no proxy and so no network faults, the same random
 * operations (cancellations, interrupts, reentrancy, take-overs, one handle used at once) and the same checks.
 */
class InMemoryRandomizedFaultTest {

    @Test
    void noLockIsHeldTwiceNorLeftHeld() throws InterruptedException {
        FaultRunSettings settings = FaultRunSettings.fromSystemProperties();
        RandomizedFaultRun.run(new InMemoryFaultFixture(), settings).assertFaultless();
    }
}
