package io.quarkiverse.lock.bench;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.springframework.jdbc.core.JdbcTemplate;

import io.smallrye.mutiny.Uni;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;

/**
 * ShedLock 7.6.0's JDBC provider ({@code JdbcTemplateLockProvider}, with the database's clock as its guide advises):
 * its blocking API on a thread pool for uncontended pairs, and one provider per contender (its own data source) for
 * handoffs. ShedLock takes a lock or skips, it never waits: a contender retries every {@link #POLL_MILLIS}, as a
 * user's retry loop would.
 */
final class ShedLockLibrary implements LockLibrary {

    /** How often a contender asks again for a lock someone else holds. */
    static final long POLL_MILLIS = 5;
    /** The lock table, as ShedLock's guide gives it for PostgreSQL. */
    static final String CREATE_TABLE = "CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP "
            + "NOT NULL, locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))";

    private final LockProvider provider;
    private final Supplier<DataSource> instanceSources;
    private final ExecutorService pool;

    /**
     * @param dataSource the data source of the uncontended pairs
     * @param instanceSources makes each contender's data source
     * @param threads the callers of the uncontended pairs
     */
    ShedLockLibrary(DataSource dataSource, Supplier<DataSource> instanceSources, int threads) {
        this.provider = provider(dataSource);
        this.instanceSources = instanceSources;
        this.pool = Executors.newFixedThreadPool(threads);
    }

    private static LockProvider provider(DataSource dataSource) {
        return new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(dataSource)).usingDbTime().build());
    }

    private static Optional<SimpleLock> lock(LockProvider provider, String key) {
        return provider.lock(new LockConfiguration(Instant.now(), key, Duration.ofMillis(LEASE_MILLIS),
                Duration.ZERO));
    }

    @Override
    public String name() {
        return "ShedLock 7.6.0 JDBC, polling every " + POLL_MILLIS + " ms";
    }

    @Override
    public Uni<Void> acquireAndRelease(String key) {
        return BlockingLocks.onPool(pool, () -> lock(provider, key).ifPresent(SimpleLock::unlock));
    }

    @Override
    public Contender contender(String key, int index) {
        LockProvider instance = provider(instanceSources.get());
        return new Contender() {
            private SimpleLock held;

            @Override
            public void acquire() throws InterruptedException {
                long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000L;
                Optional<SimpleLock> lock = lock(instance, key);
                while (lock.isEmpty()) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("gave up after " + WAIT_MILLIS + " ms");
                    }
                    Thread.sleep(POLL_MILLIS);
                    lock = lock(instance, key);
                }
                held = lock.get();
            }

            @Override
            public void release() {
                held.unlock();
            }
        };
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
