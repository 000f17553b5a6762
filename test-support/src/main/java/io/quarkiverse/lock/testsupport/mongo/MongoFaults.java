package io.quarkiverse.lock.testsupport.mongo;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * The faults a test asks the strict front to inject, and what it counts. Its state lives in a map of JDK types only,
 * so that the copies of this class that Quarkus test class loaders make all drive the one server of the JVM.
 * <p>
 * Commands are matched on the emulator's JSON rendering of the whole command (for example
 * {@code {"findAndModify" : "locks", "query" : {...}, ...}}).
 */
public final class MongoFaults {

    private static final String CLOCK_SHIFT = "clock-shift";
    private static final String REFUSALS = "refusals";
    private static final String CONCERN_ERRORS = "concern-errors";
    private static final String COUNTS = "counts";
    private static final String RECORDERS = "recorders";

    private final Map<String, Object> state;

    private MongoFaults(Map<String, Object> state) {
        this.state = state;
    }

    /**
     * @return the state of a new server's faults: none
     */
    static Map<String, Object> newState() {
        Map<String, Object> state = new ConcurrentHashMap<>();
        state.put(CLOCK_SHIFT, new AtomicLong());
        state.put(REFUSALS, new ConcurrentLinkedQueue<Object[]>());
        state.put(CONCERN_ERRORS, new ConcurrentLinkedQueue<Predicate<String>>());
        state.put(COUNTS, new ConcurrentHashMap<String, AtomicLong>());
        state.put(RECORDERS, new ConcurrentLinkedQueue<Object[]>());
        return state;
    }

    /**
     * @param state a server's fault state, made by {@link #newState()} (possibly by another copy of this class)
     * @return the faults of that server
     */
    public static MongoFaults of(Map<String, Object> state) {
        return new MongoFaults(state);
    }

    /**
     * Makes every date a client sends reach the server moved by {@code shift}, as if the clients' clocks were that far
     * ahead of the server's (behind, if negative). The server's own time ({@code $currentDate}, {@code $$NOW}) does
     * not move.
     *
     * @param shift how far ahead the clients' clocks are
     */
    public void shiftClientClocks(Duration shift) {
        clockShift().set(shift.toMillis());
    }

    /**
     * Refuses the next command that matches, with the given error, instead of running it (one time).
     *
     * @param command matches the command's JSON
     * @param code the error code
     * @param codeName the error code's name
     * @param message the error message
     */
    public void refuseNext(Predicate<String> command, int code, String codeName, String message) {
        refuse(command, 1, code, codeName, message);
    }

    /**
     * Refuses the next {@code times} commands that match, with the given error, instead of running them.
     *
     * @param command matches the command's JSON
     * @param times how many commands to refuse
     * @param code the error code
     * @param codeName the error code's name
     * @param message the error message
     */
    public void refuse(Predicate<String> command, int times, int code, String codeName, String message) {
        refusals().add(new Object[] { command, new AtomicInteger(times), code, codeName, message });
    }

    /**
     * Keeps the JSON of every command that matches from now on.
     *
     * @param command matches the command's JSON
     * @return the commands kept, in the order the server received them, growing while the test runs
     */
    public Collection<String> record(Predicate<String> command) {
        Queue<String> recorded = new ConcurrentLinkedQueue<>();
        recorders().add(new Object[] { command, recorded });
        return Collections.unmodifiableCollection(recorded);
    }

    /**
     * Runs the next command that matches, then answers it with a {@code writeConcernError} (code 64
     * {@code WriteConcernFailed}, as a {@code wtimeout} gives), the write staying applied (one time).
     *
     * @param command matches the command's JSON
     */
    public void concernErrorAfterNext(Predicate<String> command) {
        concernErrors().add(command);
    }

    /**
     * @param kind a command name as sent (such as {@code findAndModify}), or {@code changeStream} for the
     *        {@code aggregate} commands that open a change stream
     * @return how many such commands the server received
     */
    public long received(String kind) {
        AtomicLong count = counts().get(kind);
        return count == null ? 0 : count.get();
    }

    /**
     * Removes every fault not yet injected, the clock shift and the recordings; keeps the counts.
     */
    public void clear() {
        clockShift().set(0);
        refusals().clear();
        concernErrors().clear();
        recorders().clear();
    }

    long clockShiftMillis() {
        return clockShift().get();
    }

    void count(String kind) {
        counts().computeIfAbsent(kind, ignored -> new AtomicLong()).incrementAndGet();
    }

    @SuppressWarnings("unchecked")
    void record(String json) {
        for (Object[] recorder : recorders()) {
            if (((Predicate<String>) recorder[0]).test(json)) {
                ((Queue<String>) recorder[1]).add(json);
            }
        }
    }

    /**
     * @param json a command's JSON
     * @return the refusal to answer it with (code, code name, message), counted, or {@code null}
     */
    Object[] takeRefusal(String json) {
        for (Object[] refusal : refusals()) {
            @SuppressWarnings("unchecked")
            Predicate<String> matches = (Predicate<String>) refusal[0];
            AtomicInteger left = (AtomicInteger) refusal[1];
            if (matches.test(json)) {
                int remaining = left.decrementAndGet();
                if (remaining <= 0) {
                    refusals().remove(refusal);
                }
                if (remaining >= 0) {
                    return new Object[] { refusal[2], refusal[3], refusal[4] };
                }
            }
        }
        return null;
    }

    /**
     * @param json a command's JSON
     * @return {@code true} if a {@code writeConcernError} was asked for this command (and is now taken)
     */
    boolean takeConcernError(String json) {
        for (Predicate<String> matches : concernErrors()) {
            if (matches.test(json) && concernErrors().remove(matches)) {
                return true;
            }
        }
        return false;
    }

    @SuppressWarnings("unchecked")
    private Queue<Object[]> recorders() {
        return (Queue<Object[]>) state.get(RECORDERS);
    }

    private AtomicLong clockShift() {
        return (AtomicLong) state.get(CLOCK_SHIFT);
    }

    @SuppressWarnings("unchecked")
    private Queue<Object[]> refusals() {
        return (Queue<Object[]>) state.get(REFUSALS);
    }

    @SuppressWarnings("unchecked")
    private Queue<Predicate<String>> concernErrors() {
        return (Queue<Predicate<String>>) state.get(CONCERN_ERRORS);
    }

    @SuppressWarnings("unchecked")
    private Map<String, AtomicLong> counts() {
        return (Map<String, AtomicLong>) state.get(COUNTS);
    }
}
