package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * The leader-election run of the reliability tests, on whichever store: three processes take part in one leadership
 * group ({@link LeaderLog}); in an order drawn from a seed, the leader is killed with {@code kill -9}, frozen with
 * {@code SIGSTOP} past its lease and resumed, stopped gracefully, and the store is stopped for longer than a lease and
 * started again ({@link Event}), each at least once. Each process logs when it believes it leads, on the monotonic clock all
 * processes of the machine
 * share. Across the run: no two beliefs overlap, terms strictly rise with time, a new leader is elected within lease +
 * renew interval of a death, at once after a graceful shutdown, and within lease + renew interval of the store's
 * restart, and the frozen leader never believes it leads after it resumes, while its guarded work is cancelled.
 */
final class LeaderElectionRun {

    static final long LEASE_MILLIS = 2_000;
    static final long RENEW_MILLIS = 400;
    static final long MARGIN_MILLIS = 400;
    /** Longer than a lease: every term ends, by its deadline, while the store is down. */
    static final Duration OUTAGE = Duration.ofSeconds(3);
    /** The seed of the events' order, unless {@code -Dreliability.seed} says otherwise. */
    static final long DEFAULT_SEED = 20261206;

    /** The store under test, and how to start a process of the harness build that leads on it. */
    interface Store {

        /**
         * @param settings the process's system properties, as {@code -Dname=value}
         * @param args the role and its arguments
         * @return the started process
         */
        Processes.Contender start(List<String> settings, String... args) throws IOException;

        /** Stops the store as a crash does. */
        void stop() throws Exception;

        /** Starts the store again on the same address; returns once it answers. */
        void restart() throws Exception;

        /** @return the store's name, for the figures printed */
        String name();
    }

    /** What happens to the leader, or to the store, in one step of the run. */
    enum Event {
        /** The leader is killed with {@code kill -9}; a new process takes its place. */
        KILL,
        /** The leader is frozen with {@code SIGSTOP} past its lease, then resumed; it takes part again. */
        FREEZE,
        /** The leader is stopped with {@code SIGTERM}, a graceful shutdown; a new process takes its place. */
        SHUTDOWN,
        /** The store is down for {@link #OUTAGE}, then started again. */
        OUTAGE
    }

    private final Store store;
    private final Path logs;
    private final List<Processes.Contender> processes = new ArrayList<>();
    private final Map<Long, Path> logOf = new TreeMap<>();
    /** The killed processes, by pid: when they were killed. */
    private final Map<Long, Long> killedAt = new TreeMap<>();
    /** How long each event took to a new leader's election, in milliseconds. */
    private final Map<Event, List<Long>> electedAfter = new EnumMap<>(Event.class);
    private boolean storeDown;

    private LeaderElectionRun(Store store, Path logs) {
        this.store = store;
        this.logs = logs;
    }

    /**
     * Runs the events and checks every process's beliefs; fails naming what was wrong. The events are each of
     * {@link Event} once and {@code -Dreliability.leader.extra-events} more (default 2), drawn and ordered by
     * {@code -Dreliability.seed} (default {@value #DEFAULT_SEED}).
     *
     * @param store the store, whose server is running
     * @param logs a folder for the processes' logs
     */
    static void run(Store store, Path logs) throws Exception {
        new LeaderElectionRun(store, logs).run();
    }

    private void run() throws Exception {
        long seed = Long.getLong("reliability.seed", DEFAULT_SEED);
        List<Event> events = schedule(new Random(seed), Integer.getInteger("reliability.leader.extra-events", 2));
        try {
            for (int i = 0; i < 3; i++) {
                start();
            }
            for (Event event : events) {
                long elected = switch (event) {
                    case KILL -> kill();
                    case FREEZE -> freeze();
                    case SHUTDOWN -> shutdown();
                    case OUTAGE -> outage();
                };
                electedAfter.computeIfAbsent(event, ignored -> new ArrayList<>()).add(elected);
            }
        } finally {
            for (Processes.Contender process : processes) {
                if (process.isAlive()) {
                    signal("-CONT", process.pid());
                    signal("-TERM", process.pid());
                    process.awaitExit(Duration.ofSeconds(20));
                }
            }
            if (storeDown) {
                store.restart();
            }
        }
        System.out.printf("%s, seed %d, events %s: a leader elected, in ms, %s (lease %d ms, renew interval %d ms; "
                + "a freeze and an outage counted from the freeze and from the restart's start)%n", store.name(), seed,
                events, electedAfter, LEASE_MILLIS, RENEW_MILLIS);
        assertNoOverlapAndRisingTerms(events.size());
    }

    private static List<Event> schedule(Random random, int extra) {
        List<Event> events = new ArrayList<>(List.of(Event.values()));
        for (int i = 0; i < extra; i++) {
            events.add(Event.values()[random.nextInt(Event.values().length)]);
        }
        Collections.shuffle(events, random);
        return events;
    }

    /** {@code kill -9} of the leader: another is elected within lease + renew interval. */
    private long kill() throws Exception {
        Processes.Contender leader = awaitLeader(null);
        long at = System.nanoTime();
        killedAt.put(leader.pid(), at);
        signal("-9", leader.pid());
        long elected = electedSince(awaitLeader(leader), at);
        assertThat(Duration.ofMillis(elected)).as("election after a kill -9")
                .isLessThanOrEqualTo(Duration.ofMillis(LEASE_MILLIS + RENEW_MILLIS));
        start();
        return elected;
    }

    /** {@code SIGSTOP} of the leader past its lease, then {@code SIGCONT}: it must not believe it leads once resumed. */
    private long freeze() throws Exception {
        Processes.Contender frozen = awaitLeader(null);
        long frozenTerm = openTerm(frozen).orElseThrow();
        // frozen once its guarded work runs, which must then be cancelled
        awaitLine(logOf.get(frozen.pid()), "W " + frozenTerm + " ");
        long stoppedAt = System.nanoTime();
        signal("-STOP", frozen.pid());
        long elected = electedSince(awaitLeader(frozen), stoppedAt);
        assertThat(Duration.ofMillis(elected)).as("election after a freeze")
                .isLessThanOrEqualTo(Duration.ofMillis(LEASE_MILLIS + RENEW_MILLIS));
        long resumedAt = System.nanoTime();
        signal("-CONT", frozen.pid());
        awaitLine(logOf.get(frozen.pid()), "C " + frozenTerm + " ");
        List<String> frozenLog = Files.readAllLines(logOf.get(frozen.pid()));
        assertThat(frozenLog).as("the frozen leader's log").anySatisfy(line -> {
            String[] end = line.split(" ");
            assertThat(end[0]).isEqualTo("E");
            assertThat(Long.parseLong(end[1])).isEqualTo(frozenTerm);
            assertThat(Long.parseLong(end[2])).as("last moment it believed").isLessThan(resumedAt);
        });
        long cancelledAt = frozenLog.stream().filter(line -> line.startsWith("C " + frozenTerm + " "))
                .mapToLong(line -> Long.parseLong(line.split(" ")[2])).findFirst().orElseThrow();
        assertThat(cancelledAt).as("guarded work cancelled on resuming").isGreaterThan(resumedAt);
        return elected;
    }

    /** Graceful shutdown of the leader: the next is elected at once, well before the lease. */
    private long shutdown() throws Exception {
        Processes.Contender stopping = awaitLeader(null);
        long stoppingAt = System.nanoTime();
        signal("-TERM", stopping.pid());
        long elected = electedSince(awaitLeader(stopping), stoppingAt);
        assertThat(Duration.ofMillis(elected)).as("election after a graceful shutdown")
                .isLessThan(Duration.ofMillis(LEASE_MILLIS));
        assertThat(stopping.awaitExit(Duration.ofSeconds(20))).as("exit after SIGTERM").isIn(0, 143);
        start();
        return elected;
    }

    /** The store down for longer than a lease: every belief ends; a leader again soon after the restart. */
    private long outage() throws Exception {
        awaitLeader(null);
        store.stop();
        storeDown = true;
        Thread.sleep(OUTAGE.toMillis());
        assertThat(processes.stream().filter(Processes.Contender::isAlive).filter(this::leads))
                .as("nobody believes it leads %s after the store stopped", OUTAGE).isEmpty();
        // counted from the start of the restart: the store may answer before restart() returns
        long restartedAt = System.nanoTime();
        store.restart();
        storeDown = false;
        long elected = electedSince(awaitLeader(null), restartedAt);
        assertThat(Duration.ofMillis(elected)).as("election after the store's restart began")
                .isLessThanOrEqualTo(Duration.ofMillis(LEASE_MILLIS + RENEW_MILLIS));
        return elected;
    }

    /** @return how many milliseconds after {@code nanos} the process's first term after it began */
    private long electedSince(Processes.Contender leader, long nanos) throws IOException {
        return (firstBeginAfter(leader, nanos) - nanos) / 1_000_000;
    }

    private void start() throws Exception {
        Path log = Files.createTempFile(logs, "leader-", ".log");
        Processes.Contender process = store.start(List.of(
                "-Dquarkus.lock.leadership.harness.lease=" + LEASE_MILLIS + "ms",
                "-Dquarkus.lock.leadership.harness.renew-interval=" + RENEW_MILLIS + "ms",
                "-Dquarkus.lock.leadership.harness.safety-margin=" + MARGIN_MILLIS + "ms",
                "-Dquarkus.lock.operation-timeout=1s"), "lead", log.toString());
        process.awaitLine("READY", Duration.ofSeconds(60));
        processes.add(process);
        logOf.put(process.pid(), log);
    }

    /** Waits up to ten seconds for a process other than {@code not} to lead (an open term in its log). */
    private Processes.Contender awaitLeader(Processes.Contender not) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() - deadline < 0) {
            for (Processes.Contender process : processes) {
                if (process != not && process.isAlive() && leads(process)) {
                    return process;
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError("nobody but " + (not == null ? "none" : not.pid()) + " led within 10 s");
    }

    private boolean leads(Processes.Contender process) {
        try {
            return openTerm(process).isPresent();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the term the process's log began and did not end yet */
    private Optional<Long> openTerm(Processes.Contender process) throws IOException {
        Long open = null;
        for (String line : Files.readAllLines(logOf.get(process.pid()))) {
            String[] parts = line.split(" ");
            if (parts[0].equals("B")) {
                open = Long.parseLong(parts[1]);
            } else if (parts[0].equals("E") || parts[0].equals("X")) {
                open = null;
            }
        }
        return Optional.ofNullable(open);
    }

    private long firstBeginAfter(Processes.Contender process, long nanos) throws IOException {
        return Files.readAllLines(logOf.get(process.pid())).stream().filter(line -> line.startsWith("B "))
                .mapToLong(line -> Long.parseLong(line.split(" ")[2])).filter(time -> time - nanos > 0)
                .findFirst().orElseThrow();
    }

    private static void awaitLine(Path log, String prefix) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (Files.readAllLines(log).stream().noneMatch(line -> line.startsWith(prefix))) {
            assertThat(System.nanoTime() - deadline).as("a line '%s' in %s: %s", prefix, log,
                    Files.readAllLines(log)).isNegative();
            Thread.sleep(5);
        }
    }

    /** One belief: a process's term, from its begin to its end (for the killed process, the kill). */
    private record Belief(long pid, long term, long begin, long end) {
    }

    private void assertNoOverlapAndRisingTerms(int events) throws IOException {
        List<Belief> beliefs = new ArrayList<>();
        for (Map.Entry<Long, Path> process : logOf.entrySet()) {
            assertGuardedWorkFailedOnlyOnceItsTermEnded(Files.readAllLines(process.getValue()));
            // by term: its begin, and the earliest end written (the poller's, when it saw the end, is the last
            // moment it believed; the observer's, written after the belief ended, may come first in the file)
            Map<Long, long[]> terms = new TreeMap<>();
            for (String line : Files.readAllLines(process.getValue())) {
                String[] parts = line.split(" ");
                long term = parts.length == 3 ? Long.parseLong(parts[1]) : 0;
                if (parts[0].equals("B")) {
                    terms.put(term, new long[] { Long.parseLong(parts[2]), Long.MAX_VALUE });
                } else if ((parts[0].equals("E") || parts[0].equals("X")) && terms.containsKey(term)) {
                    long[] span = terms.get(term);
                    span[1] = Math.min(span[1], Long.parseLong(parts[2]));
                }
            }
            for (Map.Entry<Long, long[]> term : terms.entrySet()) {
                long end = term.getValue()[1];
                if (end == Long.MAX_VALUE) {
                    assertThat(killedAt).as("only a killed process leaves a term open").containsKey(process.getKey());
                    end = killedAt.get(process.getKey());
                }
                beliefs.add(new Belief(process.getKey(), term.getKey(), term.getValue()[0], end));
            }
        }
        beliefs.sort(Comparator.comparingLong(Belief::begin));
        assertThat(beliefs).as("terms: one before each event, and the last").hasSizeGreaterThan(events);
        for (int i = 1; i < beliefs.size(); i++) {
            Belief before = beliefs.get(i - 1);
            Belief after = beliefs.get(i);
            assertThat(after.term()).as("terms rise: %s then %s", before, after).isGreaterThan(before.term());
            assertThat(after.begin()).as("no overlap: %s then %s", before, after).isGreaterThan(before.end());
        }
        System.out.println(store.name() + " beliefs: " + beliefs);
    }

    /**
     * Guarded work started on an election fails only if the term had ended by then (an election's observers may run
     * after a term that ended at once), and the stream of changes never fails.
     */
    private static void assertGuardedWorkFailedOnlyOnceItsTermEnded(List<String> log) {
        assertThat(log).as("the stream of changes failed").noneMatch(line -> line.startsWith("S "));
        for (String failed : log) {
            if (!failed.startsWith("F ")) {
                continue;
            }
            String[] parts = failed.split(" ");
            long term = Long.parseLong(parts[1]);
            long at = Long.parseLong(parts[2]);
            assertThat(log).as("guarded work of term %d failed while the term lasted: %s", term, log)
                    .anyMatch(line -> {
                        String[] end = line.split(" ");
                        return (end[0].equals("E") || end[0].equals("X")) && Long.parseLong(end[1]) == term
                                && Long.parseLong(end[2]) < at;
                    });
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
    }
}
