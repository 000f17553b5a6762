package io.quarkiverse.lock.deployment.jdbc;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * Eight workers run five hundred critical sections each on one key of the JDBC store on MariaDB: every increment
 * counted, no overlap, tokens rising ({@link CriticalSections}).
 */
class MariaDbCriticalSectionTest extends CriticalSectionTestBase {

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.mariaDb("critical_sections");

    MariaDbCriticalSectionTest() {
        super("MariaDB");
    }
}
