package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The leader-election run of the reliability tests, on whichever store: three processes take part in one leadership
 * group ({@link LeaderLog}); the leader is killed with {@code kill -9}, the next one frozen with {@code SIGSTOP} past
 * its lease and resumed, the next one stopped gracefully, and then the store is stopped for longer than a lease and
 * started again. Each process logs when it believes it leads, on the monotonic clock all processes of the machine
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

    private final Store store;
    private final Path logs;
    private final List<Processes.Contender> processes = new ArrayList<>();
    private final Map<Long, Path> logOf = new TreeMap<>();
    private long killedPid;
    private long killedAt;

    private LeaderElectionRun(Store store, Path logs) {
        this.store = store;
        this.logs = logs;
    }

    /**
     * Runs the events and checks every process's beliefs; fails naming what was wrong.
     *
     * @param store the store, whose server is running
     * @param logs a folder for the processes' logs
     */
    static void run(Store store, Path logs) throws Exception {
        new LeaderElectionRun(store, logs).run();
    }

    private void run() throws Exception {
        boolean storeDown = false;
        try {
            for (int i = 0; i < 3; i++) {
                start();
            }
            // 1. kill -9 of the leader: another is elected within lease + renew interval.
            Processes.Contender leader = awaitLeader(null);
            killedPid = leader.pid();
            killedAt = System.nanoTime();
            signal("-9", leader.pid());
            Processes.Contender next = awaitLeader(leader);
            long electedAfterKill = firstBeginAfter(next, killedAt) - killedAt;
            assertThat(Duration.ofNanos(electedAfterKill)).as("election after a kill -9")
                    .isLessThanOrEqualTo(Duration.ofMillis(LEASE_MILLIS + RENEW_MILLIS));
            start();

            // 2. SIGSTOP of the leader past its lease, then SIGCONT: it must not believe it leads once resumed.
            Processes.Contender frozen = next;
            long frozenTerm = openTerm(frozen).orElseThrow();
            long stoppedAt = System.nanoTime();
            signal("-STOP", frozen.pid());
            Processes.Contender during = awaitLeader(frozen);
            assertThat(Duration.ofNanos(firstBeginAfter(during, stoppedAt) - stoppedAt)).as("election after a freeze")
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

            // 3. Graceful shutdown of the leader: the next is elected at once, well before the lease.
            Processes.Contender stopping = during;
            long stoppingAt = System.nanoTime();
            signal("-TERM", stopping.pid());
            Processes.Contender after = awaitLeader(stopping);
            long handOver = firstBeginAfter(after, stoppingAt) - stoppingAt;
            assertThat(Duration.ofNanos(handOver)).as("election after a graceful shutdown")
                    .isLessThan(Duration.ofMillis(LEASE_MILLIS));
            assertThat(stopping.awaitExit(Duration.ofSeconds(20))).as("exit after SIGTERM").isIn(0, 143);

            // 4. The store down for longer than a lease: every belief ends; a leader again soon after the restart.
            store.stop();
            storeDown = true;
            Thread.sleep(OUTAGE.toMillis());
            assertThat(processes.stream().filter(Processes.Contender::isAlive).filter(this::leads))
                    .as("nobody believes it leads %s after the store stopped", OUTAGE).isEmpty();
            // counted from the start of the restart: the store may answer before restart() returns
            long restartedAt = System.nanoTime();
            store.restart();
            storeDown = false;
            Processes.Contender afterOutage = awaitLeader(null);
            long electedAfterRestart = firstBeginAfter(afterOutage, restartedAt) - restartedAt;
            assertThat(Duration.ofNanos(electedAfterRestart)).as("election after the store's restart began")
                    .isLessThanOrEqualTo(Duration.ofMillis(LEASE_MILLIS + RENEW_MILLIS));
            System.out.printf("%s: leader elected %d ms after kill -9, %d ms after a graceful shutdown, %d ms after "
                    + "the store's restart began (lease %d ms, renew interval %d ms)%n", store.name(),
                    electedAfterKill / 1_000_000, handOver / 1_000_000, electedAfterRestart / 1_000_000, LEASE_MILLIS,
                    RENEW_MILLIS);
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
        assertNoOverlapAndRisingTerms();
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
            assertThat(System.nanoTime() - deadline).as("a line '%s' in %s", prefix, log).isNegative();
            Thread.sleep(5);
        }
    }

    /** One belief: a process's term, from its begin to its end (for the killed process, the kill). */
    private record Belief(long pid, long term, long begin, long end) {
    }

    private void assertNoOverlapAndRisingTerms() throws IOException {
        List<Belief> beliefs = new ArrayList<>();
        for (Map.Entry<Long, Path> process : logOf.entrySet()) {
            long term = 0;
            long begin = 0;
            for (String line : Files.readAllLines(process.getValue())) {
                String[] parts = line.split(" ");
                if (parts[0].equals("B")) {
                    term = Long.parseLong(parts[1]);
                    begin = Long.parseLong(parts[2]);
                } else if ((parts[0].equals("E") || parts[0].equals("X")) && Long.parseLong(parts[1]) == term) {
                    // The poller's end if it saw it, else the observer's, later than the belief's end.
                    beliefs.add(new Belief(process.getKey(), term, begin, Long.parseLong(parts[2])));
                    term = 0;
                }
            }
            if (term != 0) {
                assertThat(process.getKey()).as("only the killed process leaves a term open").isEqualTo(killedPid);
                beliefs.add(new Belief(process.getKey(), term, begin, killedAt));
            }
        }
        beliefs.sort(Comparator.comparingLong(Belief::begin));
        assertThat(beliefs).as("terms: kill, freeze, shutdown, outage and the last").hasSizeGreaterThanOrEqualTo(5);
        for (int i = 1; i < beliefs.size(); i++) {
            Belief before = beliefs.get(i - 1);
            Belief after = beliefs.get(i);
            assertThat(after.term()).as("terms rise: %s then %s", before, after).isGreaterThan(before.term());
            assertThat(after.begin()).as("no overlap: %s then %s", before, after).isGreaterThan(before.end());
        }
        System.out.println(store.name() + " beliefs: " + beliefs);
    }

    private static void signal(String signal, long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
    }
}
