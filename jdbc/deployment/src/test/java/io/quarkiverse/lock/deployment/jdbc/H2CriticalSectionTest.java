package io.quarkiverse.lock.deployment.jdbc;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * Eight workers run five hundred critical sections each on one key of the JDBC store on H2: every increment
 * counted, no overlap, tokens rising ({@link CriticalSections}).
 */
class H2CriticalSectionTest extends CriticalSectionTestBase {

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.h2("critical_sections");

    H2CriticalSectionTest() {
        super("H2");
    }
}
