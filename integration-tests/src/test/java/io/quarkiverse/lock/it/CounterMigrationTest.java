package io.quarkiverse.lock.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.migration.MigrationReport;
import io.quarkiverse.lock.test.RedisServerResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The migrator run at startup by a {@code StartupEvent} observer: both change sets ran once, in order.
 */
@QuarkusTest
@WithTestResource(RedisServerResource.class)
class CounterMigrationTest {

    @Inject
    CounterMigration migration;

    @Inject
    CounterResource counters;

    @Test
    void theChangeSetsRanOnceInOrderAtStartup() {
        MigrationReport report = migration.report();
        List<String> recorded = new ArrayList<>(report.alreadyApplied());
        recorded.addAll(report.applied());
        assertThat(recorded).containsExactlyInAnyOrder("001-seed", "002-double");
        assertThat(counters.get(CounterMigration.SEEDED).await().atMost(Duration.ofSeconds(10)))
                .as("seeded with 100, doubled once").isEqualTo(200L);
    }
}
