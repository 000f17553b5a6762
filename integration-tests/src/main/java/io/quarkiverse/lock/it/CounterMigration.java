package io.quarkiverse.lock.it;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.quarkiverse.lock.migration.ChangeSet;
import io.quarkiverse.lock.migration.LockMigrator;
import io.quarkiverse.lock.migration.MigrationReport;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.quarkus.runtime.StartupEvent;

/**
 * Seeds a counter at startup with two change sets that must run once across all instances: the second doubles what
 * the first wrote, so a repeated change set would show in the value.
 */
@ApplicationScoped
public class CounterMigration {

    /** The counter the change sets write. */
    public static final String SEEDED = "seeded";

    @Inject
    LockMigrator migrator;

    @Inject
    ReactiveRedisDataSource redis;

    private volatile MigrationReport report;

    void migrate(@Observes StartupEvent started) {
        ReactiveValueCommands<String, Long> values = redis.value(Long.class);
        String key = CounterResource.key(SEEDED);
        report = migrator.migrate("counters", List.of(
                ChangeSet.of("001-seed", () -> values.set(key, 100L)),
                ChangeSet.of("002-double", () -> values.get(key).flatMap(value -> values.set(key, value * 2)))))
                .await().atMost(Duration.ofMinutes(1));
    }

    /**
     * @return what the migration did at this start
     */
    public MigrationReport report() {
        return report;
    }
}
