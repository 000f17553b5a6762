package io.quarkiverse.lock.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

import io.smallrye.mutiny.Uni;

/**
 * Spring Integration's {@code JdbcLockRegistry} 7.1.2 over a {@code DefaultLockRepository}, set up as a Spring
 * context would (a transaction manager on the data source): its blocking API on a thread pool for uncontended pairs,
 * and one repository and registry per contender (its own client id and data source) for handoffs. A waiting
 * {@code tryLock} retries every {@code idleBetweenTries}: 100 ms unless set.
 */
final class SpringJdbcLibrary implements LockLibrary {

    /** The schema script Spring Integration ships for PostgreSQL. */
    static final String POSTGRESQL_SCHEMA = "org/springframework/integration/jdbc/schema-postgresql.sql";
    /** The schema script Spring Integration ships for MySQL, which MariaDB runs too. */
    static final String MYSQL_SCHEMA = "org/springframework/integration/jdbc/schema-mysql.sql";

    private final Duration idleBetweenTries;
    private final Supplier<DataSource> instanceSources;
    private final List<DefaultLockRepository> repositories = new ArrayList<>();
    private final JdbcLockRegistry registry;
    private final ExecutorService pool;

    /**
     * @param dataSource the data source of the uncontended pairs
     * @param instanceSources makes each contender's data source
     * @param idleBetweenTries how often a waiting {@code tryLock} retries, or {@code null} for Spring's default
     * @param threads the callers of the uncontended pairs
     */
    SpringJdbcLibrary(DataSource dataSource, Supplier<DataSource> instanceSources, Duration idleBetweenTries,
            int threads) {
        this.idleBetweenTries = idleBetweenTries;
        this.instanceSources = instanceSources;
        this.registry = registry(dataSource);
        this.pool = Executors.newFixedThreadPool(threads);
    }

    /**
     * @param schema one of the schema scripts that Spring Integration ships, such as {@link #POSTGRESQL_SCHEMA}
     * @return the {@code INT_LOCK} table's DDL, from that script, without its semicolon
     */
    static String createTableStatement(String schema) {
        try (InputStream script = SpringJdbcLibrary.class.getClassLoader().getResourceAsStream(schema)) {
            if (script == null) {
                throw new IllegalStateException(schema + " is not on the class path");
            }
            String text = new String(script.readAllBytes(), StandardCharsets.UTF_8);
            Matcher table = Pattern.compile("CREATE TABLE INT_LOCK\\s*\\(.*?\\)[^;(]*(?=;)", Pattern.DOTALL).matcher(text);
            if (!table.find()) {
                throw new IllegalStateException(schema + " creates no INT_LOCK table");
            }
            return table.group();
        } catch (IOException e) {
            throw new IllegalStateException("Could not read " + schema, e);
        }
    }

    private synchronized JdbcLockRegistry registry(DataSource dataSource) {
        DefaultLockRepository repository = new DefaultLockRepository(dataSource);
        repository.setTransactionManager(new DataSourceTransactionManager(dataSource));
        repository.afterPropertiesSet();
        repository.afterSingletonsInstantiated();
        repository.start();
        repositories.add(repository);
        JdbcLockRegistry created = new JdbcLockRegistry(repository, Duration.ofMillis(LEASE_MILLIS));
        if (idleBetweenTries != null) {
            created.setIdleBetweenTries(idleBetweenTries);
        }
        return created;
    }

    @Override
    public String name() {
        return "Spring JdbcLockRegistry 7.1.2"
                + (idleBetweenTries == null ? "" : ", idleBetweenTries " + idleBetweenTries.toMillis() + " ms");
    }

    @Override
    public Uni<Void> acquireAndRelease(String key) {
        return BlockingLocks.tryLockAndUnlock(() -> registry.obtain(key), pool);
    }

    @Override
    public Contender contender(String key, int index) {
        return BlockingLocks.contender(registry(instanceSources.get()).obtain(key));
    }

    @Override
    public synchronized void close() {
        pool.shutdownNow();
        repositories.forEach(DefaultLockRepository::close);
        repositories.clear();
    }
}
