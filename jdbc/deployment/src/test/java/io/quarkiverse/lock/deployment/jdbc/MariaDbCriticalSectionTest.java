package io.quarkiverse.lock.deployment.jdbc;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.LockRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Eight workers run five hundred critical sections each on one key of the JDBC store on MariaDB: every increment
 * counted, no overlap, tokens rising ({@link CriticalSections}).
 */
class MariaDbCriticalSectionTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.mariaDb("critical_sections");

    @Inject
    LockRegistry locks;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void eightWorkersRunningFiveHundredSectionsEachLoseNoIncrementAndNeverOverlap() throws Exception {
        CriticalSections.assertExact("MariaDB", locks, dataSource);
    }
}
