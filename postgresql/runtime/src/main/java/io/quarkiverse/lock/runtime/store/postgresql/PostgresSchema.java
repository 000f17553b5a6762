package io.quarkiverse.lock.runtime.store.postgresql;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.spi.SqlSchemaProblem;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;

/**
 * Creates the lock table when it is missing, once, before the first statement that needs it.
 * <p>
 * The table is looked up first ({@code to_regclass}, through the search path, as the statements find it), and the DDL
 * is sent only when it is not there: PostgreSQL checks the {@code CREATE} privilege before {@code IF NOT EXISTS}, so a
 * database user without it still works once the table exists. Two instances creating the table at once may see
 * PostgreSQL refuse the second creation (a unique violation in its catalog); the table is then there, which is all
 * that counts. A failure, or no answer within the operation timeout, is logged, not thrown, saying what failed
 * (connecting, logging in, creating the table: {@link SqlSchemaProblem}), and the check is made again by the next
 * statement (nothing is remembered but success): the statements then report the missing table themselves.
 */
final class PostgresSchema {

    private static final Logger LOG = Logger.getLogger(PostgresSchema.class);
    private static final String UNIQUE_VIOLATION = "23505";
    private static final String DUPLICATE_TABLE = "42P07";

    private final BoundedStatements bounded;
    private final PostgresStatements statements;
    private final boolean create;
    private volatile boolean ready;
    private volatile boolean warned;
    private Uni<Void> inFlight;

    PostgresSchema(BoundedStatements bounded, PostgresStatements statements, boolean create) {
        this.bounded = bounded;
        this.statements = statements;
        this.create = create;
        this.ready = !create;
    }

    /** Completes, never with a failure, once the table was found or created, or creating it failed. */
    Uni<Void> ready() {
        if (ready) {
            return Uni.createFrom().voidItem();
        }
        synchronized (this) {
            if (inFlight == null) {
                inFlight = createIfMissing().memoize().indefinitely();
            }
            return inFlight;
        }
    }

    private Uni<Void> createIfMissing() {
        Tuple table = Tuple.of(statements.table());
        return bounded.bounded(c -> c.preparedQuery("SELECT to_regclass($1::text) IS NOT NULL").execute(table))
                .flatMap(rows -> rows.iterator().next().getBoolean(0) ? Uni.createFrom().voidItem()
                        : bounded.bounded(c -> c.query(statements.createTable()).execute())
                                .invoke(created -> LOG.infof("Created the lock table %s", statements.table()))
                                .replaceWithVoid())
                .invoke(() -> ready = true)
                .onFailure(PostgresSchema::createdMeanwhile).recoverWithUni(() -> {
                    ready = true;
                    return Uni.createFrom().voidItem();
                })
                .onFailure().recoverWithUni(failure -> {
                    LOG.log(warned ? Logger.Level.DEBUG : Logger.Level.WARN, SqlSchemaProblem.describe(
                            "the lock table " + statements.table(), false, "quarkus.lock.postgresql.create-schema",
                            failure instanceof PgException pg ? pg.getSqlState() : null, failure.getMessage()));
                    warned = true;
                    synchronized (this) {
                        inFlight = null;
                    }
                    return Uni.createFrom().voidItem();
                });
    }

    private static boolean createdMeanwhile(Throwable failure) {
        return failure instanceof PgException pg
                && (UNIQUE_VIOLATION.equals(pg.getSqlState()) || DUPLICATE_TABLE.equals(pg.getSqlState()));
    }
}
