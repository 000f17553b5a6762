package io.quarkiverse.lock.faults;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

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
        RandomizedFaultRun.Report report = RandomizedFaultRun.run(new RedisUnderTest(), settings);
        assertFaultless(report);
    }

    static void assertFaultless(RandomizedFaultRun.Report report) {
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(report.operations()).as("operations run").isPositive();
        softly.assertThat(report.verdict().sectionsChecked).as("sections checked").isPositive();
        softly.assertThat(report.harnessFailuresAndHungOperations()).as("operations that failed the harness or hung: "
                + report.outcomes()).isZero();
        softly.assertThat(report.verdict().overlaps).as("overlaps: " + report.summary()).isZero();
        softly.assertThat(report.verdict().violations).as("violations: " + report.summary()).isEmpty();
        softly.assertThat(report.leftInStore()).as("stuck keys: " + report.summary()).isEmpty();
        softly.assertAll();
    }
}
