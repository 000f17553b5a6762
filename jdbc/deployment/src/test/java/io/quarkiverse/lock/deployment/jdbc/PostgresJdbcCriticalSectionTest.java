package io.quarkiverse.lock.deployment.jdbc;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * Eight workers run five hundred critical sections each on one key of the JDBC store on PostgreSQL: every increment
 * counted, no overlap, tokens rising ({@link CriticalSections}).
 */
class PostgresJdbcCriticalSectionTest extends CriticalSectionTestBase {

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.postgres("critical_sections");

    PostgresJdbcCriticalSectionTest() {
        super("PostgreSQL");
    }
}
