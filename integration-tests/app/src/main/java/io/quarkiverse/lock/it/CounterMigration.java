package io.quarkiverse.lock.it;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.quarkiverse.lock.migration.ChangeSet;
import io.quarkiverse.lock.migration.LockMigrator;
import io.quarkiverse.lock.migration.MigrationReport;
import io.quarkus.runtime.StartupEvent;

/**
 * Seeds a counter at startup with two change sets that must run once across all instances and restarts: the second
 * doubles what the first wrote, so a repeated change set would show in the value.
 */
@ApplicationScoped
public class CounterMigration {

    /** The counter the change sets write. */
    public static final String SEEDED = "seeded";

    private static final Duration MIGRATION_TIMEOUT = Duration.ofMinutes(1);

    @Inject
    LockMigrator migrator;

    @Inject
    Counters counters;

    private volatile MigrationReport report;

    void migrate(@Observes StartupEvent started) {
        report = migrator.migrate("counters", List.of(
                ChangeSet.of("001-seed", () -> counters.set(SEEDED, 100)),
                ChangeSet.of("002-double", () -> counters.get(SEEDED).flatMap(value -> counters.set(SEEDED,
                        value * 2)))))
                .await().atMost(MIGRATION_TIMEOUT);
    }

    /**
     * @return what the migration did at this start
     */
    public MigrationReport report() {
        return report;
    }
}
