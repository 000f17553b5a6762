package io.quarkiverse.lock.migration;

/**
 * A change set failed: the run stopped there. The change sets before it are recorded as applied; it and the ones
 * after it are not, so the next run starts again with it.
 */
public class MigrationFailedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String migration;
    private final String changeSetId;

    /**
     * @param migration the migration's name
     * @param changeSetId the id of the change set that failed
     * @param cause its failure
     */
    public MigrationFailedException(String migration, String changeSetId, Throwable cause) {
        super("Change set '" + changeSetId + "' of migration '" + migration + "' failed, so the migration stopped "
                + "there (it runs again from that change set next time): " + cause.getMessage(), cause);
        this.migration = migration;
        this.changeSetId = changeSetId;
    }

    /**
     * @return the migration's name
     */
    public String getMigration() {
        return migration;
    }

    /**
     * @return the id of the change set that failed
     */
    public String getChangeSetId() {
        return changeSetId;
    }
}
