package io.quarkiverse.lock.runtime.store.postgresql;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.jboss.logging.Logger;

import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.PgException;

/**
 * Ends the server process of an abandoned statement's connection, from another connection of the pool, and tells
 * when it is gone: only then can the statement no longer take effect.
 * <p>
 * Each round asks the server whether the process is still there, as a session of the store's login role on its
 * database, and, if so, signals it to terminate ({@code pg_terminate_backend}, allowed to a role on its own role's
 * sessions); rounds repeat until one finds it gone, each bounded by the operation timeout (the server may be
 * unreachable or paused: the statement's key waits meanwhile, as it must). A cancel request would be lighter, but it
 * ends only a statement still running: not one that committed and whose reply was lost, nor one whose bytes are still
 * on the way. A role that may not terminate the session (one the pool does not connect as) is told once in the log;
 * the statement then ends when its connection does; so too when the process is a session of another role or database
 * (see {@link #TERMINATE}). A process id that the server gave again to a new session of the same role, once the old
 * process ended, is not told apart, nor are those of earlier unanswered rounds: that takes the ids wrapping around (at
 * least 32,768 processes started since) within the rounds of one termination.
 * <p>
 * A round is itself a statement whose reply may be lost: it runs on a connection it takes from the pool, and one that
 * gets no answer within the timeout keeps that connection out of the pool (handed back, it would carry the unanswered
 * round to the next user) and leaves its own server process to the next round, which ends it along with its target.
 * Without that, each lost round would hold a connection for ever, until the pool had none left for the rounds, and
 * the abandoned statements' keys would wait for ever.
 */
final class BackendTermination {

    private static final Logger LOG = Logger.getLogger(BackendTermination.class);
    /** Between rounds: a terminated process exits within milliseconds. */
    private static final long ROUND_MILLIS = 50;
    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    /**
     * Whether the process {@code $1} is gone; if it is not and is a session of the round's own login role on its own
     * database, signals it (in a column of its own: the planner would drop a call whose result cannot change the
     * answer); whether it is there but another's; and signals the processes {@code $2} of earlier rounds that got no
     * answer. A process of another role or database is never signalled: once the abandoned statement's process ended,
     * the server may give its id to a new session, perhaps of another application, which a role allowed to end any
     * session (a superuser, a member of {@code pg_signal_backend}) would end too. Nor is it taken for gone, since it may
     * be the abandoned statement's own, logged in with other credentials (rotating ones): the termination is then
     * refused, and the statement's key waits until its connection ends.
     */
    private static final String TERMINATE = """
            SELECT NOT t.present, CASE WHEN t.own THEN pg_terminate_backend($1::int) END, t.present AND NOT t.own,
                (SELECT bool_and(pg_terminate_backend(p)) FROM unnest($2::int[]) AS p)
            FROM (SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1::int) AS present,
                         EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1::int AND usename = session_user
                                 AND datname = current_database()) AS own) t""";

    private final Vertx vertx;
    private final Pool pool;
    private final Duration timeout;
    /** The server processes of rounds that got no answer, each keeping its connection until a later round ends it. */
    private final Set<Integer> unanswered = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    private volatile boolean warned;

    BackendTermination(Vertx vertx, Pool pool, Duration timeout) {
        this.vertx = vertx;
        this.pool = pool;
        this.timeout = timeout;
    }

    /**
     * @param processId the server process of the abandoned statement's connection
     * @return the termination, not started yet
     */
    Termination termination(int processId) {
        return new Termination(processId);
    }

    /**
     * The rounds that end one server process. Until one of them is sent, it may be {@link #cancel() cancelled}: a
     * statement whose reply came after all (late) is done at the server, and its connection may go back to the pool
     * as long as no round can still reach its process. Its rounds may otherwise wait for ever for a connection of a
     * pool that the abandoned statements hold entirely (the listener holds one more).
     */
    final class Termination {

        private static final int NOT_SENT = 0;
        private static final int SENT = 1;
        private static final int CANCELLED = 2;

        private final int processId;
        private final CompletableFuture<Boolean> gone = new CompletableFuture<>();
        private final AtomicInteger state = new AtomicInteger(NOT_SENT);

        private Termination(int processId) {
            this.processId = processId;
        }

        /** Starts the rounds, unless cancelled first. */
        void start() {
            round(this);
        }

        /**
         * @return completes with {@code true} once the process is gone, or {@code false} if it may not be ended (the
         *         role's privileges) or the store closed first; never if cancelled
         */
        CompletableFuture<Boolean> gone() {
            return gone;
        }

        /** @return {@code true} if no round was sent, nor ever will be: the process is left alone */
        boolean cancel() {
            return state.compareAndSet(NOT_SENT, CANCELLED) || state.get() == CANCELLED;
        }

        private boolean cancelled() {
            return state.get() == CANCELLED;
        }

        /** @return {@code true} if a round may be sent: not cancelled, and never again cancellable */
        private boolean send() {
            return state.compareAndSet(NOT_SENT, SENT) || state.get() == SENT;
        }
    }

    private void round(Termination termination) {
        if (termination.cancelled()) {
            return;
        }
        if (closed) {
            termination.gone.complete(false);
            return;
        }
        pool.getConnection().subscribe().with(connection -> round(connection, termination),
                failure -> again(termination));
    }

    private void round(SqlConnection connection, Termination termination) {
        if (!termination.send()) {
            connection.closeAndForget();
            return;
        }
        int processId = termination.processId;
        CompletableFuture<Boolean> gone = termination.gone;
        Integer[] earlier = unanswered.toArray(Integer[]::new);
        AtomicBoolean answered = new AtomicBoolean();
        long timer = vertx.setTimer(Math.max(1, timeout.toMillis()), id -> {
            if (answered.compareAndSet(false, true)) {
                if (connection.getDelegate() instanceof PgConnection pg) {
                    unanswered.add(pg.processId());
                }
                again(termination);
            }
        });
        connection.preparedQuery(TERMINATE).execute(Tuple.of(processId, earlier)).subscribe().with(rows -> {
            if (!answered.compareAndSet(false, true)) {
                return;
            }
            vertx.cancelTimer(timer);
            connection.closeAndForget();
            unanswered.removeAll(List.of(earlier));
            Row row = rows.iterator().next();
            if (row.getBoolean(0)) {
                LOG.debugf("The server process %d of a statement that got no answer is gone", processId);
                gone.complete(true);
            } else if (row.getBoolean(2)) {
                refused(processId, "it is a session of another role or database");
                gone.complete(false);
            } else {
                again(termination);
            }
        }, failure -> {
            if (!answered.compareAndSet(false, true)) {
                return;
            }
            vertx.cancelTimer(timer);
            connection.closeAndForget();
            if (failure instanceof PgException pg && INSUFFICIENT_PRIVILEGE.equals(pg.getSqlState())) {
                refused(processId, pg.getMessage());
                gone.complete(false);
            } else {
                again(termination);
            }
        });
    }

    private void again(Termination termination) {
        vertx.setTimer(ROUND_MILLIS, id -> round(termination));
    }

    private void refused(int processId, String why) {
        LOG.logf(warned ? Logger.Level.DEBUG : Logger.Level.WARN, "Could not end the PostgreSQL session %d of a lock "
                + "statement that got no answer (%s): its lock key waits until that session ends", processId, why);
        warned = true;
    }

    /** Ends every termination at its next round, as not gone. */
    void close() {
        closed = true;
    }
}
