package io.quarkiverse.lock.runtime.store.mongodb;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.tck.faults.FaultRunSettings;
import io.quarkiverse.lock.tck.faults.RandomizedFaultRun;

/**
 * The randomized fault test on MongoDB: four instances, each a registry whose MongoDB client goes through its own
 * fault-injecting proxy to the strict in-process MongoDB front, run random operations on six keys while the proxies
 * delay and drop replies, cut and swallow connections. No lock may be held twice, tokens must rise, and once the
 * faults stop and every lease has run out, no lock may be left held. Seed, size and soak: see
 * {@link FaultRunSettings}.
 */
class MongoRandomizedFaultTest {

    /** Fewer than on Redis: a MongoDB operation takes longer, and the run in CI stays under about 90 s. */
    private static final int OPERATIONS = 4_000;

    @Test
    void noLockIsHeldTwiceNorLeftHeldWhateverTheNetworkDoes() throws InterruptedException {
        FaultRunSettings settings = FaultRunSettings.fromSystemProperties(OPERATIONS);
        RandomizedFaultRun.run(new MongoFaultFixture(), settings).assertFaultless();
    }
}
