package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.testsupport.StoreReadiness;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With only a JDBC datasource present (no client of a dedicated store) and no provider configured, the locks live in
 * the JDBC store, which creates its tables at startup and answers the readiness check.
 */
class JdbcStoreChosenTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.h2("chosen_locks");

    @Inject
    DefaultLockRegistry registry;

    @Inject
    LockRegistry locks;

    @Inject
    AgroalDataSource dataSource;

    @Test
    void theJdbcStoreIsChosenAndLocks() throws Exception {
        assertThat(registry.store().name()).isEqualTo("jdbc");
        DistributedLock first = locks.obtainBlocking("chosen");
        DistributedLock second = locks.obtainBlocking("chosen");
        assertThat(first.acquire(Duration.ZERO)).isTrue();
        assertThat(second.acquire(Duration.ZERO)).isFalse();
        assertThat(first.release()).isTrue();
        assertThat(second.acquire(Duration.ZERO)).isTrue();
        assertThat(second.fencingToken().orElseThrow()).isGreaterThan(0);
        assertThat(second.release()).isTrue();

        try (Connection connection = dataSource.getConnection();
                ResultSet rows = connection.createStatement().executeQuery("SELECT COUNT(*) FROM chosen_locks_line")) {
            assertThat(rows.next()).as("the line table was created").isTrue();
        }
    }

    @Test
    void readinessIsUp() {
        StoreReadiness.assertUp();
    }
}
