package io.quarkiverse.lock.runtime.waiting;

import java.time.Duration;

import org.jboss.logging.Logger;

import io.vertx.core.Vertx;

/**
 * Periodically drops the local per-key state ({@link LocalLine}) that nobody waits on or used lately. Started at
 * application start and stopped at shutdown. (Expired locks of the in-memory store are its own business: it sweeps
 * them itself.)
 */
public final class IdleLockEvictor {

    private static final Logger LOG = Logger.getLogger(IdleLockEvictor.class);
    private static final long NOT_RUNNING = -1;

    private final LocalLockStates states;
    private final Vertx vertx;
    private final long intervalMillis;
    private long timerId = NOT_RUNNING;

    /**
     * @param states the local states to evict from
     * @param vertx the Vert.x instance whose timer drives the evictor
     * @param interval how often to evict, and how long a state must have been idle to be evicted
     */
    public IdleLockEvictor(LocalLockStates states, Vertx vertx, Duration interval) {
        this.states = states;
        this.vertx = vertx;
        this.intervalMillis = Math.max(1, interval.toMillis());
    }

    /**
     * Starts evicting periodically. Does nothing if already running.
     */
    public synchronized void start() {
        if (timerId == NOT_RUNNING) {
            timerId = vertx.setPeriodic(intervalMillis, id -> evictOnce());
            LOG.debugf("Idle lock evictor started, every %d ms", intervalMillis);
        }
    }

    /**
     * Stops evicting. Does nothing if not running.
     */
    public synchronized void stop() {
        if (timerId != NOT_RUNNING) {
            vertx.cancelTimer(timerId);
            timerId = NOT_RUNNING;
            LOG.debug("Idle lock evictor stopped");
        }
    }

    /**
     * @return {@code true} between {@link #start()} and {@link #stop()}
     */
    public synchronized boolean isRunning() {
        return timerId != NOT_RUNNING;
    }

    /**
     * Runs one eviction now.
     */
    public void evictOnce() {
        try {
            int evicted = states.evictIdle(System.nanoTime(), intervalMillis * 1_000_000L);
            if (evicted > 0) {
                LOG.tracef("Evicted the local state of %d idle lock keys", evicted);
            }
        } catch (RuntimeException e) {
            LOG.warn("Idle lock eviction failed; it runs again at the next interval", e);
        }
    }
}
