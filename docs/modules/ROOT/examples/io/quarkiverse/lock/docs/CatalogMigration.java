package io.quarkiverse.lock.docs;

import java.time.Duration;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.quarkiverse.lock.migration.ChangeSet;
import io.quarkiverse.lock.migration.LockMigrator;
import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.quarkus.redis.datasource.value.ReactiveValueCommands;
import io.quarkus.runtime.StartupEvent;

/**
 * A migration at startup: each change set runs once across all instances, in order.
 */
// tag::migration[]
@ApplicationScoped
public class CatalogMigration {

    @Inject
    LockMigrator migrator;

    @Inject
    ReactiveRedisDataSource redis;

    void migrate(@Observes StartupEvent started) {
        ReactiveValueCommands<String, Long> values = redis.value(Long.class);
        migrator.migrate("catalog", List.of(
                ChangeSet.of("001-seed-stock", () -> values.set("stock:seeded", 100L)),
                ChangeSet.of("002-double-stock", () -> values.get("stock:seeded")
                        .flatMap(stock -> values.set("stock:seeded", stock * 2)))))
                .await().atMost(Duration.ofMinutes(1));
    }
}
// end::migration[]
