package io.quarkiverse.lock.faults;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.tck.faults.FaultRunSettings;
import io.quarkiverse.lock.tck.faults.RandomizedFaultRun;

/**
 * The randomized fault test on Redis: four instances, each a registry whose Redis client goes through its own
 * fault-injecting proxy to one real {@code redis-server}, run random operations on four keys while the proxies delay
 * replies and pub/sub messages, cut and swallow connections. No lock may be held twice, tokens must rise, and once the
 * faults stop and every lease has run out, no lock may be left held. Seed, size and soak: see
 * {@link FaultRunSettings}.
 */
class RedisRandomizedFaultTest {

    @Test
    void noLockIsHeldTwiceNorLeftHeldWhateverTheNetworkDoes() throws InterruptedException {
        FaultRunSettings settings = FaultRunSettings.fromSystemProperties();
        RandomizedFaultRun.run(new RedisFaultFixture(), settings).assertFaultless();
    }
}
