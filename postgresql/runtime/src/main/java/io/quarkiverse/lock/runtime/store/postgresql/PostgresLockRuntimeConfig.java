package io.quarkiverse.lock.runtime.store.postgresql;

import java.time.Duration;
import java.util.OptionalInt;

import io.quarkus.runtime.annotations.ConfigPhase;
import io.quarkus.runtime.annotations.ConfigRoot;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Runtime configuration of the PostgreSQL store. The datasource is chosen at build time
 * ({@link PostgresLockBuildTimeConfig}).
 */
@ConfigMapping(prefix = "quarkus.lock.postgresql")
@ConfigRoot(phase = ConfigPhase.RUN_TIME)
public interface PostgresLockRuntimeConfig {

    /**
     * The table that holds one row per lock key: a lower-case SQL identifier ({@code [a-z_][a-z0-9_]*}, at most 63
     * characters), optionally qualified by a schema of the same form ({@code locks.quarkus_lock}). Used quoted, so it
     * is never read as SQL. Release announcements go out on the notification channel of the same name (without the
     * schema).
     */
    @WithDefault("quarkus_lock")
    String table();

    /**
     * Whether the store creates its table at startup when it does not exist (the DDL is in the guide, for Flyway or
     * Liquibase). Creating it is skipped when it exists, so a database user without the {@code CREATE} privilege works
     * once the table is there; turn this off to never send DDL.
     */
    @WithDefault("true")
    boolean createSchema();

    /**
     * Whether a release that hands a lock to a waiter of another instance is announced with {@code pg_notify}, which
     * every instance hears on one {@code LISTEN} connection taken from the datasource's pool, so the waiter takes the
     * lock at once instead of at its next poll. Without it (or when a notification is lost), waiters poll.
     */
    @WithDefault("true")
    boolean releaseNotifications();

    /**
     * How long a lock row stays after the lock was last free and nobody asked for it, before a bounded sweep deletes
     * it (at most 1000 rows at a time, every tenth of this time, from each instance). Fencing tokens are at least the
     * database's time in microseconds, so a key whose row was deleted still gets tokens above every earlier one,
     * unless the database clock stepped back by more than this. Must be positive.
     */
    @WithDefault("1h")
    Duration freeRowRetention();

    /**
     * How many connections of the datasource's pool the store's lock statements hold at once (besides the one that
     * listens for hand-overs); further statements wait in this instance, in order, for one to be answered. A lock
     * statement costs PostgreSQL tens of microseconds, so a few busy connections carry more of them than many that
     * each wait for a core of the server; the rest of the pool stays free for the application. Default: twice the
     * processors the JVM may use, at least 4. Must be at least 1.
     */
    OptionalInt maxConnections();
}
