package io.quarkiverse.lock.runtime.store.postgresql;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.pgclient.PgConnection;
import io.vertx.pgclient.PgException;

/**
 * Runs the store's statements on connections of the pool, each bounded by the operation timeout from when it is sent
 * (waiting for a connection is bounded by the pool): the reactive client has no timeout of its own, and a statement
 * whose reply is lost on a connection that stays open (a partition, a NAT that forgot the flow, a paused server) would
 * otherwise never end.
 * <p>
 * A statement that gets no answer in time is abandoned: its connection is kept out of the pool, and its server
 * process is terminated from another connection ({@link BackendTermination}), so that the statement can never take
 * effect later. If it had committed, its effect stays (and the take-back that follows frees it); if it was running, it
 * is rolled back; if its bytes are still on the way, they find the server's socket closed. A statement whose caller
 * must not be overtaken ({@link #settled}) ends only then, so {@link io.quarkiverse.lock.spi.OrderedPerKey} lets the
 * next statement on its key, such as the take-back, run after the abandoned one is settled, not behind it for ever.
 * A statement whose connection fails (reset, closed) before its reply is abandoned the same way: the server may still
 * hold its bytes.
 *
 * @param vertx the Vert.x instance, for the statements' timers
 * @param pool the pool the statements run on
 * @param timeout how long a statement may go without an answer ({@code quarkus.lock.operation-timeout})
 * @param termination ends the server processes of abandoned statements
 * @param gate how many statements hold a connection at once ({@code quarkus.lock.postgresql.max-connections}),
 *        abandoned ones included until their sessions end: the others wait there, unsent, for one to be answered
 */
record BoundedStatements(Vertx vertx, Pool pool, Duration timeout, BackendTermination termination,
        StatementGate gate) {

    /** The send-by time of a statement that may be sent whenever a connection is free. */
    private static final long NO_DEADLINE = Long.MIN_VALUE;

    /**
     * Runs statements on the pool, terminating the abandoned ones from other connections of the same pool.
     *
     * @param vertx the Vert.x instance, for the statements' timers
     * @param pool the pool the statements run on
     * @param timeout how long a statement may go without an answer
     * @param maxConnections how many statements may hold a connection at once
     */
    BoundedStatements(Vertx vertx, Pool pool, Duration timeout, int maxConnections) {
        this(vertx, pool, timeout, new BackendTermination(vertx, pool, timeout), new StatementGate(maxConnections));
    }

    /**
     * @param statement sends the statement on the connection it is given
     * @return the rows; fails with the statement's error, or once the statement got no answer within the timeout and
     *         it can no longer take effect (its server process ended)
     */
    Uni<RowSet<Row>> settled(Function<SqlConnection, Uni<RowSet<Row>>> statement) {
        return Uni.createFrom().emitter(emitter -> new Attempt(statement, emitter, true, NO_DEADLINE).start());
    }

    /**
     * As {@link #settled}, for a statement that must not be sent once its caller was told it failed: one that has no
     * connection yet when {@code sendByNanos} ({@link System#nanoTime()}) has passed is never sent, and fails with a
     * {@link NotSentException}.
     *
     * @param sendByNanos until when the statement may be sent
     * @param statement sends the statement on the connection it is given
     * @return the rows; fails as {@link #settled} does, or with a {@link NotSentException}
     */
    Uni<RowSet<Row>> settledIfSentBy(long sendByNanos, Function<SqlConnection, Uni<RowSet<Row>>> statement) {
        return Uni.createFrom().emitter(emitter -> new Attempt(statement, emitter, true, sendByNanos).start());
    }

    /**
     * @param statement sends the statement on the connection it is given
     * @return the rows; fails with the statement's error, or as soon as the timeout ran out (the abandoned statement
     *         is then ended in the background), for a statement nothing else waits for
     */
    Uni<RowSet<Row>> bounded(Function<SqlConnection, Uni<RowSet<Row>>> statement) {
        return Uni.createFrom().emitter(emitter -> new Attempt(statement, emitter, false, NO_DEADLINE).start());
    }

    /** Stops terminating abandoned statements: the application stops, so nothing waits for them any more. */
    void close() {
        termination.close();
    }

    /** One statement, from taking a connection to its end. */
    private final class Attempt {

        private final Function<SqlConnection, Uni<RowSet<Row>>> statement;
        private final UniEmitter<? super RowSet<Row>> emitter;
        private final boolean waitForSettling;
        /** Until when ({@link System#nanoTime()}) the statement may be sent, or {@link #NO_DEADLINE}. */
        private final long sendByNanos;
        /** Completes once the statement ended at the server, by itself or terminated. */
        private final CompletableFuture<Void> settled = new CompletableFuture<>();
        /** The connection carrying the statement and its timer, guarded by this, as are the flags. */
        private SqlConnection connection;
        private long timer = -1;
        private boolean answered;
        /** Whether the abandoned statement's server process is being ended. */
        private boolean terminating;
        /** The rounds ending the abandoned statement's server process, once it is being ended. */
        private BackendTermination.Termination ending;
        private boolean killed;
        private boolean ended;
        /** Whether the statement gave up its place in the {@link StatementGate gate}. */
        private boolean leftGate;

        Attempt(Function<SqlConnection, Uni<RowSet<Row>>> statement, UniEmitter<? super RowSet<Row>> emitter,
                boolean waitForSettling, long sendByNanos) {
            this.statement = statement;
            this.emitter = emitter;
            this.waitForSettling = waitForSettling;
            this.sendByNanos = sendByNanos;
        }

        void start() {
            if (tooLate()) {
                emitter.fail(new NotSentException());
                return;
            }
            gate.enter(this::take);
        }

        /** Takes a connection once the statement has a place in the gate, on the thread that gave it one. */
        private void take() {
            if (tooLate()) {
                leaveGate();
                emitter.fail(new NotSentException());
                return;
            }
            pool.getConnection().subscribe().with(this::connected, this::notConnected);
        }

        /**
         * Gives up the statement's place in the gate, once: its connection went back to the pool, or its session
         * ended. An abandoned statement keeps its place until then, since it keeps its connection: were it to leave
         * earlier, abandoned statements could hold every connection of the pool during an outage, and the rounds that
         * end their sessions ({@link BackendTermination}) would find none.
         */
        private void leaveGate() {
            synchronized (this) {
                if (leftGate) {
                    return;
                }
                leftGate = true;
            }
            gate.leave();
        }

        /** Whether the statement's time to be sent has passed: waiting for a connection may take seconds. */
        private boolean tooLate() {
            return sendByNanos != NO_DEADLINE && System.nanoTime() - sendByNanos >= 0;
        }

        private void connected(SqlConnection taken) {
            if (tooLate()) {
                taken.closeAndForget();
                leaveGate();
                emitter.fail(new NotSentException());
                return;
            }
            synchronized (this) {
                connection = taken;
                timer = vertx.setTimer(Math.max(1, timeout.toMillis()), id -> timedOut());
            }
            Uni<RowSet<Row>> sent;
            try {
                sent = statement.apply(taken);
            } catch (RuntimeException e) {
                ended(null, e);
                return;
            }
            sent.subscribe().with(rows -> ended(rows, null), failure -> ended(null, failure));
        }

        private void notConnected(Throwable failure) {
            leaveGate();
            if (answer()) {
                emitter.fail(failure);
            }
        }

        /**
         * A reply, an error reply included, means the server is done with the statement. A failure of the connection
         * (reset, closed) does not: a paused server may still run the bytes it holds, so the statement is abandoned
         * as on a timeout. A reply that comes after the timeout but before any round to end the session was sent
         * gives the connection back: the statement is done, and no round will reach its session. Otherwise, with
         * abandoned statements holding every connection the listener leaves, the rounds would wait for ever for one,
         * and the late replies could never free any.
         */
        private void ended(RowSet<Row> rows, Throwable failure) {
            boolean atServer = failure == null || failure instanceof PgException;
            boolean release;
            BackendTermination.Termination terminate = null;
            boolean settle;
            synchronized (this) {
                ended = true;
                if (atServer && terminating && ending.cancel()) {
                    // a late reply, before any round was sent: the connection is idle, and no round will reach it
                    terminating = false;
                }
                if (!atServer && !terminating && !killed && connection.getDelegate() instanceof PgConnection pg) {
                    terminate = termination.termination(pg.processId());
                    ending = terminate;
                    terminating = true;
                }
                release = !terminating && !killed;
                settle = atServer || !terminating;
            }
            if (release) {
                connection.closeAndForget();
                leaveGate();
            }
            if (terminate != null) {
                terminate(terminate);
            }
            if (settle) {
                settled.complete(null);
            }
            if (!answer()) {
                return;
            }
            if (failure == null) {
                emitter.complete(rows);
            } else if (waitForSettling) {
                settled.whenComplete((ignored, never) -> emitter.fail(failure));
            } else {
                emitter.fail(failure);
            }
        }

        private void timedOut() {
            BackendTermination.Termination terminate = null;
            boolean leave;
            synchronized (this) {
                if (answered) {
                    return;
                }
                answered = true;
                if (!terminating && !killed && connection.getDelegate() instanceof PgConnection pg) {
                    terminate = termination.termination(pg.processId());
                    ending = terminate;
                    terminating = true;
                }
                leave = !terminating && !killed;
            }
            if (leave) {
                leaveGate();
            }
            if (terminate != null) {
                terminate(terminate);
            }
            NoAnswerException noAnswer = new NoAnswerException(timeout);
            if (waitForSettling) {
                settled.whenComplete((ignored, never) -> emitter.fail(noAnswer));
            } else {
                emitter.fail(noAnswer);
            }
        }

        private void terminate(BackendTermination.Termination rounds) {
            rounds.gone().thenAccept(this::gone);
            rounds.start();
        }

        /**
         * The abandoned statement's server process is gone, or could not be ended. A connection whose process is gone
         * is never given back to the pool, which drops it when it sees it closed: a statement that ended by itself
         * meanwhile must not hand the pool a connection about to be cut.
         */
        private void gone(boolean gone) {
            boolean release;
            synchronized (this) {
                terminating = false;
                killed = gone;
                release = !gone && ended;
            }
            if (release) {
                connection.closeAndForget();
            }
            leaveGate();
            if (gone) {
                settled.complete(null);
            }
        }

        /** @return {@code true} if this call is the statement's answer, {@code false} if it timed out already */
        private boolean answer() {
            long running;
            synchronized (this) {
                if (answered) {
                    return false;
                }
                answered = true;
                running = timer;
            }
            if (running >= 0) {
                vertx.cancelTimer(running);
            }
            return true;
        }
    }

    /** A statement was not sent: its caller had been told it failed before a connection was free for it. */
    static final class NotSentException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        NotSentException() {
            super("the statement was not sent: the operation timeout (quarkus.lock.operation-timeout) ran out before "
                    + "it could be");
        }
    }

    /** A statement got no answer within the operation timeout. */
    static final class NoAnswerException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        NoAnswerException(Duration timeout) {
            super("PostgreSQL answered no statement within " + timeout + " (quarkus.lock.operation-timeout)");
        }
    }
}
