package io.quarkiverse.lock.it.jdbc;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * {@link JdbcLockedMethodsTest} against the packaged application (the jar, or the native executable).
 */
@QuarkusIntegrationTest
class JdbcLockedMethodsIT extends JdbcLockedMethodsTest {
}
