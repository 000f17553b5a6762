package io.quarkiverse.lock.runtime.store.jdbc;

import java.time.Duration;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Runtime configuration of the JDBC store. The datasource is chosen at build time ({@link JdbcLockBuildTimeConfig}).
 */
@ConfigMapping(prefix = "quarkus.lock.jdbc")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface JdbcLockRuntimeConfig {

    /**
     * The table that holds one row per lock key: a lower-case SQL identifier ({@code [a-z_][a-z0-9_]*}, at most 58
     * characters), optionally qualified by a schema of the same form ({@code locks.quarkus_lock}). The line of waiters
     * lives in a second table of the same name with {@code _line} appended.
     */
    @WithDefault("quarkus_lock")
    String table();

    /**
     * Whether the store creates its tables at startup when they do not exist (the DDL of each database is in the
     * guide, for Flyway or Liquibase). Turn this off to never send DDL.
     */
    @WithDefault("true")
    boolean createSchema();

    /**
     * How many threads of the store's own run its JDBC calls, each on a connection of the datasource: at most this
     * many lock operations use a connection at once, and further ones wait in line for a thread, each at most
     * {@code quarkus.lock.operation-timeout}. No JDBC call runs on an event loop or a caller's thread.
     */
    @WithDefault("8")
    int threads();

    /**
     * How often each instance looks for locks that other instances handed over to one of its waiters (one query on
     * an index, whatever the number of waiters), so that the waiter takes the lock without asking again. It looks only
     * while one of its waiters is in a line (a waiting acquisition was refused within the last second), never while
     * none is. Waiters poll for the lock themselves too, so this only makes hand-overs across instances quicker; on
     * PostgreSQL, whose hand-overs are also announced by {@code NOTIFY}, it catches what an announcement missed. Must
     * be positive.
     */
    @WithDefault("20ms")
    Duration handOverPollInterval();

    /**
     * How long a lock row stays after the lock was last free and nobody asked for it, before a bounded sweep deletes
     * it (at most 1000 rows at a time, every tenth of this time, from each instance). Fencing tokens are at least the
     * database's time in microseconds, so a key whose row was deleted still gets tokens above every earlier one,
     * unless the database clock stepped back by more than this. Must be positive.
     */
    @WithDefault("1h")
    Duration freeRowRetention();
}
