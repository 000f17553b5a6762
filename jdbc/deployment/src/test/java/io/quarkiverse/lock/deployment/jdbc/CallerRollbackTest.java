package io.quarkiverse.lock.deployment.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.agroal.api.AgroalDataSource;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockRegistry;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A lock operation is a transaction of its own and never joins the caller's: a {@code @Transactional} method that
 * acquires (or releases) and then rolls back undoes its own writes, and neither the acquisition nor the release. On
 * MariaDB, through the application's datasource and Narayana.
 */
class CallerRollbackTest {

    @RegisterExtension
    static final QuarkusUnitTest APP = JdbcTestApp.mariaDb("rollback_locks", AuditedWork.class);

    @Inject
    LockRegistry locks;

    @Inject
    AuditedWork work;

    @Inject
    AgroalDataSource dataSource;

    /** Writes the application's own row in the caller's transaction, does something to the lock, then fails. */
    @ApplicationScoped
    public static class AuditedWork {

        @Inject
        AgroalDataSource dataSource;

        @Transactional
        public void acquireThenFail(DistributedLock lock, String audit) throws SQLException {
            insertAudit(audit);
            assertThat(lock.acquire(Duration.ZERO)).isTrue();
            throw new IllegalStateException("rolled back after acquiring");
        }

        @Transactional
        public void releaseThenFail(DistributedLock lock, String audit) throws SQLException {
            insertAudit(audit);
            assertThat(lock.release()).isTrue();
            throw new IllegalStateException("rolled back after releasing");
        }

        private void insertAudit(String audit) throws SQLException {
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement insert = connection.prepareStatement("INSERT INTO audit VALUES (?)")) {
                insert.setString(1, audit);
                insert.executeUpdate();
            }
        }
    }

    @BeforeEach
    void createAuditTable() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.createStatement().execute("CREATE TABLE IF NOT EXISTS audit (id VARCHAR(64) PRIMARY KEY)");
        }
    }

    @Test
    void aRollbackOfTheCallerKeepsTheLockItAcquired() throws SQLException {
        String key = "rollback-" + UUID.randomUUID();
        String audit = UUID.randomUUID().toString();
        DistributedLock lock = locks.obtainBlocking(key);

        assertThatThrownBy(() -> work.acquireThenFail(lock, audit)).hasMessageContaining("rolled back");

        assertThat(audited(audit)).as("the caller's own write was rolled back").isFalse();
        assertThat(lock.isAcquired()).as("the acquisition was not").isTrue();
        assertThat(locks.obtainBlocking(key).acquire(Duration.ZERO)).as("nobody else gets it").isFalse();
        assertThat(lock.release()).isTrue();
    }

    @Test
    void aRollbackOfTheCallerKeepsTheLockItReleasedFree() throws SQLException {
        String key = "rollback-" + UUID.randomUUID();
        String audit = UUID.randomUUID().toString();
        DistributedLock lock = locks.obtainBlocking(key);
        assertThat(lock.acquire(Duration.ZERO)).isTrue();

        assertThatThrownBy(() -> work.releaseThenFail(lock, audit)).hasMessageContaining("rolled back");

        assertThat(audited(audit)).as("the caller's own write was rolled back").isFalse();
        DistributedLock next = locks.obtainBlocking(key);
        assertThat(next.acquire(Duration.ZERO)).as("the release was not").isTrue();
        assertThat(next.release()).isTrue();
    }

    private boolean audited(String audit) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT COUNT(*) FROM audit WHERE id = ?")) {
            select.setString(1, audit);
            try (ResultSet rows = select.executeQuery()) {
                rows.next();
                return rows.getLong(1) > 0;
            }
        }
    }
}
