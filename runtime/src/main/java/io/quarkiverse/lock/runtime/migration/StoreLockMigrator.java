package io.quarkiverse.lock.runtime.migration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.migration.ChangeSet;
import io.quarkiverse.lock.migration.LockMigrator;
import io.quarkiverse.lock.migration.MigrationFailedException;
import io.quarkiverse.lock.migration.MigrationReport;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * The {@link LockMigrator} on the registry's store: a run holds the lock {@code migration:<name>} with lease
 * renewal, and an applied change set is the marker {@code migration:<name>:applied:<id>}, kept in the store for good.
 */
public final class StoreLockMigrator implements LockMigrator {

    private static final Logger LOG = Logger.getLogger(StoreLockMigrator.class);

    private final DefaultLockRegistry registry;
    private final MigrationMarkers markers;

    /**
     * @param registry the registry whose store holds the migration lock and the records
     */
    public StoreLockMigrator(DefaultLockRegistry registry) {
        this.registry = registry;
        this.markers = new MigrationMarkers(registry.boundedStore());
    }

    @Override
    public Uni<MigrationReport> migrate(String name, Duration wait, List<ChangeSet> changeSets) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("migration name must not be null or blank, but is '" + name + "'");
        }
        if (wait == null || wait.isNegative()) {
            throw new IllegalArgumentException("wait must not be null or negative, but is " + wait);
        }
        List<ChangeSet> steps = checkedChangeSets(name, changeSets);
        return registry.obtain(lockKey(name)).withLeaseRenewal(true)
                .acquireAndExecute(wait, Uni.createFrom().deferred(() -> run(name, steps)));
    }

    private static List<ChangeSet> checkedChangeSets(String name, List<ChangeSet> changeSets) {
        if (changeSets == null) {
            throw new IllegalArgumentException("change sets of migration '" + name + "' must not be null");
        }
        Set<String> ids = new HashSet<>();
        for (ChangeSet changeSet : changeSets) {
            if (changeSet == null) {
                throw new IllegalArgumentException("change sets of migration '" + name + "' must not hold null");
            }
            if (!ids.add(changeSet.id())) {
                throw new IllegalArgumentException("change set id '" + changeSet.id() + "' appears twice in migration '"
                        + name + "'");
            }
            if (recordKey(name, changeSet.id()).length() > LockRegistry.MAX_KEY_LENGTH) {
                throw new IllegalArgumentException("migration name and change set id '" + changeSet.id()
                        + "' are too long together: their record key must be at most " + LockRegistry.MAX_KEY_LENGTH
                        + " characters");
            }
        }
        return List.copyOf(changeSets);
    }

    private Uni<MigrationReport> run(String name, List<ChangeSet> changeSets) {
        List<String> applied = new ArrayList<>();
        List<String> alreadyApplied = new ArrayList<>();
        return Multi.createFrom().iterable(changeSets)
                .onItem().transformToUniAndConcatenate(changeSet -> {
                    String record = recordKey(name, changeSet.id());
                    return markers.has(record).flatMap(done -> {
                        if (done) {
                            alreadyApplied.add(changeSet.id());
                            return Uni.createFrom().voidItem();
                        }
                        return apply(name, changeSet).call(() -> markers.put(record))
                                .invoke(() -> applied.add(changeSet.id()));
                    });
                })
                .collect().last()
                .map(ignored -> new MigrationReport(name, applied, alreadyApplied))
                .invoke(report -> LOG.infof("Migration '%s': applied %s, already applied %s", name,
                        report.applied(), report.alreadyApplied()));
    }

    private static Uni<Void> apply(String name, ChangeSet changeSet) {
        LOG.debugf("Migration '%s': applying change set '%s'", name, changeSet.id());
        return changeSet.change()
                .onFailure().transform(failure -> new MigrationFailedException(name, changeSet.id(), failure));
    }

    private static String lockKey(String name) {
        return "migration:" + name;
    }

    private static String recordKey(String name, String changeSetId) {
        return "migration:" + name + ":applied:" + changeSetId;
    }
}
