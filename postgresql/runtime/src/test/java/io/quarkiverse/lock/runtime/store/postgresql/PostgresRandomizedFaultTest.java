package io.quarkiverse.lock.runtime.store.postgresql;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.tck.faults.FaultRunSettings;
import io.quarkiverse.lock.tck.faults.RandomizedFaultRun;

/**
 * The randomized fault test on PostgreSQL: four instances, each a registry whose PostgreSQL client goes through its own
 * fault-injecting proxy to a private PostgreSQL server, run random operations on six keys while the proxies
 * delay replies and notifications, drop answers, cut and swallow connections. No lock may be held twice, tokens must rise, and
 * once the
 * faults stop and every lease has run out, no lock may be left held. Seed, size and soak: see
 * {@link FaultRunSettings}.
 */
class PostgresRandomizedFaultTest {

    /** Fewer than on Redis: a PostgreSQL operation takes longer, and the run in CI stays under about 90 s. */
    private static final int OPERATIONS = 2_500;

    @Test
    void noLockIsHeldTwiceNorLeftHeldWhateverTheNetworkDoes() throws InterruptedException {
        FaultRunSettings settings = FaultRunSettings.fromSystemProperties(OPERATIONS);
        RandomizedFaultRun.run(new PostgresFaultFixture(), settings).assertFaultless();
    }
}
