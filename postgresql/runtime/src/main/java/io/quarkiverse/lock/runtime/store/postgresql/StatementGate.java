package io.quarkiverse.lock.runtime.store.postgresql;

import java.util.ArrayDeque;

/**
 * Lets at most a given number of the store's statements hold a connection of the pool at once; the others wait here,
 * in the order they came, for one of them to be answered. PostgreSQL serves a lock statement in tens of microseconds,
 * so a few connections kept busy carry more statements than many that each wait their turn for a core: every
 * connection in use is a server process to schedule, and a statement that waits for a connection of its own waits for
 * the pool's queue anyway.
 * <p>
 * A statement leaves once it no longer holds its connection: given back to the pool with its answer, or, for one
 * abandoned after the operation timeout, once its session was ended (until then its connection stays out of the
 * pool). So the store never holds more connections than the limit, however many statements an outage abandons, and
 * the pool keeps connections for the rounds that end the abandoned sessions; once the server answers again, those
 * rounds free the places within milliseconds. Waiting here, a statement has not been sent, and its caller's operation
 * timeout runs as it would while it waits for the pool.
 */
final class StatementGate {

    private final int limit;
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    /** How many statements hold a place, guarded by this. */
    private int running;
    /** The statements given a place from within the {@link #leave()} running on this thread, to start after it. */
    private final ThreadLocal<ArrayDeque<Runnable>> handedOver = new ThreadLocal<>();

    /** @param limit how many statements may hold a connection at once, at least 1 */
    StatementGate(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("the gate must let at least one statement through: " + limit);
        }
        this.limit = limit;
    }

    /**
     * Runs {@code start} now if a place is free, or once one is; whoever it runs must {@link #leave()} once.
     *
     * @param start takes a connection and sends the statement
     */
    void enter(Runnable start) {
        synchronized (this) {
            if (running >= limit) {
                waiting.add(start);
                return;
            }
            running++;
        }
        start.run();
    }

    /**
     * Gives up a place: the statement that held it gave its connection back, or its session ended. The place goes to
     * the first waiting statement, if any. A statement given a place may give it up at once (its time to be sent ran
     * out while it waited), and so on down the line: the statements given places from within this call run one after
     * the other once it returns to the outermost {@code leave} on this thread, not each inside the one before, which
     * would overflow the stack on a long line (an outage keeps every place taken, and the line grows).
     */
    void leave() {
        Runnable next;
        synchronized (this) {
            next = waiting.poll();
            if (next == null) {
                running--;
                return;
            }
        }
        ArrayDeque<Runnable> handing = handedOver.get();
        if (handing != null) {
            handing.add(next);
            return;
        }
        handing = new ArrayDeque<>();
        handedOver.set(handing);
        RuntimeException first = null;
        try {
            for (Runnable start = next; start != null; start = handing.poll()) {
                try {
                    start.run();
                } catch (RuntimeException e) {
                    // the others were given their places too: each must still run, or its place is lost
                    if (first == null) {
                        first = e;
                    }
                }
            }
        } finally {
            handedOver.remove();
        }
        if (first != null) {
            throw first;
        }
    }

    /** How many statements wait for a place, for tests. */
    synchronized int waiting() {
        return waiting.size();
    }
}
