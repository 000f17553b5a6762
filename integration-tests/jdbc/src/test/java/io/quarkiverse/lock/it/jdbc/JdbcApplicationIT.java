package io.quarkiverse.lock.it.jdbc;

import io.quarkus.test.junit.QuarkusIntegrationTest;

/**
 * {@link JdbcApplicationTest} against the packaged application (the jar, or the native executable).
 */
@QuarkusIntegrationTest
class JdbcApplicationIT extends JdbcApplicationTest {
}
