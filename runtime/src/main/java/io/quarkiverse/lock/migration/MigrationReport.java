package io.quarkiverse.lock.migration;

import java.util.List;

/**
 * What one run of a migration did.
 *
 * @param migration the migration's name
 * @param applied the ids of the change sets this run applied, in order
 * @param alreadyApplied the ids of the change sets an earlier run (of any instance) had applied, in order
 */
public record MigrationReport(String migration, List<String> applied, List<String> alreadyApplied) {

    /**
     * @param migration the migration's name
     * @param applied the ids of the change sets this run applied, in order
     * @param alreadyApplied the ids of the change sets an earlier run had applied, in order
     */
    public MigrationReport {
        applied = List.copyOf(applied);
        alreadyApplied = List.copyOf(alreadyApplied);
    }
}
