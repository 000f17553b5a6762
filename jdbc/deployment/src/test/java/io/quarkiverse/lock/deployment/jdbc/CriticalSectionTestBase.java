package io.quarkiverse.lock.deployment.jdbc;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.LockRegistry;

/**
 * Eight workers run five hundred critical sections each on one key of the JDBC store: every increment counted, no
 * overlap, tokens rising ({@link CriticalSections}). Each subclass registers the application of one database.
 */
abstract class CriticalSectionTestBase {

    @Inject
    LockRegistry locks;

    @Inject
    AgroalDataSource dataSource;

    private final String database;

    /**
     * @param database the database's name, for the printed line
     */
    CriticalSectionTestBase(String database) {
        this.database = database;
    }

    @Test
    void eightWorkersRunningFiveHundredSectionsEachLoseNoIncrementAndNeverOverlap() throws Exception {
        CriticalSections.assertExact(database, locks, dataSource);
    }
}
