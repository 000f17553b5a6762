package io.quarkiverse.lock.runtime.store.jdbc;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.tck.faults.FaultRunSettings;
import io.quarkiverse.lock.tck.faults.RandomizedFaultRun;

/**
 * The randomized fault test on the JDBC store, on PostgreSQL through its JDBC driver and on MariaDB through MariaDB
 * Connector/J: four instances, each a registry whose Agroal pool goes through its own fault-injecting proxy (reading
 * the database's protocol) to a private server, run random operations on six keys while the proxies delay replies,
 * drop whole answers on connections that stay open, cut and swallow connections. No lock may be held twice, tokens
 * must rise, and once the faults stop and every lease has run out, no lock may be left held. Seed, size and soak: see
 * {@link FaultRunSettings}.
 */
class JdbcRandomizedFaultTest {

    /**
     * Fewer than on PostgreSQL's reactive store: a JDBC operation takes longer, two databases run, and each run stays
     * under 60 s on the 2-core CI machine.
     */
    private static final int OPERATIONS = 1_500;

    @Test
    void onPostgresNoLockIsHeldTwiceNorLeftHeldWhateverTheNetworkDoes() throws InterruptedException {
        FaultRunSettings settings = FaultRunSettings.fromSystemProperties(OPERATIONS);
        RandomizedFaultRun.run(JdbcFaultFixture.onPostgres(), settings).assertFaultless();
    }

    @Test
    void onMariaDbNoLockIsHeldTwiceNorLeftHeldWhateverTheNetworkDoes() throws InterruptedException {
        FaultRunSettings settings = FaultRunSettings.fromSystemProperties(OPERATIONS);
        RandomizedFaultRun.run(JdbcFaultFixture.onMariaDb(), settings).assertFaultless();
    }
}
