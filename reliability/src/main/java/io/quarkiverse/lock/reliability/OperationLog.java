package io.quarkiverse.lock.reliability;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.redis.datasource.ReactiveRedisDataSource;
import io.smallrye.mutiny.Uni;

/**
 * The history of a process's acquisitions and releases, for the tests' history check: each operation as a line of the
 * store TCK's {@code LockOperation.line()} format, appended to the Redis list {@code {<log>}:history} of the default
 * Redis client (the server that keeps the section log), with times read from that server's clock, so the lines of every
 * process share one clock.
 */
@ApplicationScoped
public class OperationLog {

    @Inject
    ReactiveRedisDataSource redis;

    /**
     * @param log the name of the log
     * @return the Redis list that holds its history
     */
    public static String historyOf(String log) {
        return "{" + log + "}:history";
    }

    /**
     * @return the Redis server's clock, in microseconds: an operation invoked after this reading completed was invoked
     *         after that time, one completed before the reading began completed before it
     */
    public Uni<Long> now() {
        return redis.execute("TIME").map(time -> Long.parseLong(time.get(0).toString()) * 1_000_000
                + Long.parseLong(time.get(1).toString()));
    }

    /**
     * @param log the name of the log
     * @param lines the operations, as {@link #line} writes them, appended in this order
     * @return completes once they are in the history
     */
    public Uni<Void> append(String log, String... lines) {
        return redis.list(String.class).rpush(historyOf(log), lines).replaceWithVoid();
    }

    /**
     * @param role the harness role that ran the operation, as the history names it
     * @param kind {@code ACQUIRE} or {@code RELEASE}
     * @param key the lock's key
     * @param owner the handle, unique across processes
     * @param leaseMillis the lease an acquisition asked for; 0 for a release
     * @param invoked when it was invoked, on the server's clock, in microseconds
     * @param completed when it completed
     * @param outcome {@code OK} (it took effect), {@code FAIL} (it did not) or {@code UNKNOWN}
     * @param token the fencing token of the hold it is about
     * @return the line of a single-entrant, non-overriding handle's operation
     */
    public static String line(String role, String kind, String key, String owner, long leaseMillis, long invoked,
            long completed, String outcome, long token) {
        return String.join("|", role, kind, key, owner, "0", "0", Long.toString(leaseMillis), Long.toString(invoked),
                Long.toString(completed), outcome, Long.toString(token));
    }
}
