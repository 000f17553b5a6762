package io.quarkiverse.lock.migration;

import java.time.Duration;
import java.util.List;

import io.smallrye.mutiny.Uni;

/**
 * Applies ordered change sets once across all instances, recording each in the lock store: a lock-based migrator.
 * Inject it and run it at startup:
 *
 * <pre>
 * &#64;Startup
 * &#64;ApplicationScoped
 * class CatalogMigration {
 *     &#64;Inject
 *     void migrate(LockMigrator migrator, CatalogRepository catalog) {
 *         migrator.migrate("catalog", List.of(
 *                 ChangeSet.of("001-index-sku", catalog::createSkuIndex),
 *                 ChangeSet.of("002-backfill-prices", catalog::backfillPrices)))
 *                 .await().atMost(Duration.ofMinutes(15));
 *     }
 * }
 * </pre>
 *
 * A run holds the lock {@code migration:<name>} (renewing its lease), so instances that start at once run one after
 * the other: the first applies what is missing, the others find it applied. Change sets run in list order, each
 * once; one that fails stops the run, and the next run starts again with it.
 */
public interface LockMigrator {

    /** How long {@link #migrate(String, List)} waits for another instance's run of the same migration. */
    Duration DEFAULT_WAIT = Duration.ofMinutes(15);

    /**
     * Runs a migration, waiting up to {@link #DEFAULT_WAIT} for another instance's run of it to end.
     *
     * @param name the migration's name, not blank; change set records are kept per name
     * @param changeSets the change sets, in the order to apply them; ids unique
     * @return what the run applied; fails with {@link MigrationFailedException} naming the change set that failed,
     *         with {@code CannotAcquireLockException} if another run held the migration longer than the wait, or with
     *         {@code LockException} if the store failed
     * @throws IllegalArgumentException if the name is blank or too long, or the list is {@code null}, holds
     *         {@code null} or repeats an id
     */
    default Uni<MigrationReport> migrate(String name, List<ChangeSet> changeSets) {
        return migrate(name, DEFAULT_WAIT, changeSets);
    }

    /**
     * Runs a migration, waiting up to {@code wait} for another instance's run of it to end.
     *
     * @param name the migration's name, not blank; change set records are kept per name
     * @param wait how long to wait for another run of this migration; not negative
     * @param changeSets the change sets, in the order to apply them; ids unique
     * @return what the run applied; fails as {@link #migrate(String, List)} says
     * @throws IllegalArgumentException if an argument is invalid, as {@link #migrate(String, List)} says, or the wait
     *         is {@code null} or negative
     */
    Uni<MigrationReport> migrate(String name, Duration wait, List<ChangeSet> changeSets);
}
