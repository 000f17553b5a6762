package io.quarkiverse.lock.deployment.jdbc;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.LockRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Eight workers run five hundred critical sections each on one key of the JDBC store on H2: every increment
 * counted, no overlap, tokens rising ({@link CriticalSections}).
 */
class H2CriticalSectionTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.h2("critical_sections");

    @Inject
    LockRegistry locks;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void eightWorkersRunningFiveHundredSectionsEachLoseNoIncrementAndNeverOverlap() throws Exception {
        CriticalSections.assertExact("H2", locks, dataSource);
    }
}
