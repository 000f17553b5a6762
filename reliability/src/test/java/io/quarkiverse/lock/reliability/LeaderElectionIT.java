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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * Three processes take part in one leadership group on Redis ({@link LeaderLog}); the leader is killed with
 * {@code kill -9}, the next one frozen with {@code SIGSTOP} past its lease and resumed, the next one stopped
 * gracefully. Each process logs when it believes it leads, on the monotonic clock all processes of the machine share.
 * Across the run: no two beliefs overlap, terms strictly rise with time, a new leader is elected within lease + renew
 * interval of a death and at once after a graceful shutdown, and the frozen leader never believes it leads after it
 * resumes, while its guarded work is cancelled.
 */
class LeaderElectionIT {

    private static final long LEASE_MILLIS = 2_000;
    private static final long RENEW_MILLIS = 400;
    private static final long MARGIN_MILLIS = 400;

    @TempDir
    Path logs;

    @Test
    void oneLeaderAtATimeThroughAKillAFreezeAndAShutdown() throws Exception {
        RedisServer redis = RedisServer.start();
        List<Processes.Contender> processes = new ArrayList<>();
        Map<Long, Path> logOf = new TreeMap<>();
        long killedAt = 0;
        long killedPid = 0;
        try {
            for (int i = 0; i < 3; i++) {
                start(redis, processes, logOf);
            }
            // 1. kill -9 of the leader: another is elected within lease + renew interval.
            Processes.Contender leader = awaitLeader(processes, logOf, null);
            killedPid = leader.pid();
            killedAt = System.nanoTime();
            signal("-9", leader.pid());
            Processes.Contender next = awaitLeader(processes, logOf, leader);
            long electedAfterKill = firstBeginAfter(logOf.get(next.pid()), killedAt) - killedAt;
            assertThat(Duration.ofNanos(electedAfterKill)).as("election after a kill -9")
                    .isLessThanOrEqualTo(Duration.ofMillis(LEASE_MILLIS + RENEW_MILLIS));
            start(redis, processes, logOf);

            // 2. SIGSTOP of the leader past its lease, then SIGCONT: it must not believe it leads once resumed.
            Processes.Contender frozen = next;
            long frozenTerm = openTerm(logOf.get(frozen.pid())).orElseThrow();
            long stoppedAt = System.nanoTime();
            signal("-STOP", frozen.pid());
            Processes.Contender during = awaitLeader(processes, logOf, frozen);
            assertThat(Duration.ofNanos(firstBeginAfter(logOf.get(during.pid()), stoppedAt) - stoppedAt))
                    .as("election after a freeze").isLessThanOrEqualTo(Duration.ofMillis(LEASE_MILLIS + RENEW_MILLIS));
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
            new ProcessBuilder("kill", "-TERM", Long.toString(stopping.pid())).inheritIO().start().waitFor();
            Processes.Contender after = awaitLeader(processes, logOf, stopping);
            long handOver = firstBeginAfter(logOf.get(after.pid()), stoppingAt) - stoppingAt;
            assertThat(Duration.ofNanos(handOver)).as("election after a graceful shutdown")
                    .isLessThan(Duration.ofMillis(LEASE_MILLIS));
            assertThat(stopping.awaitExit(Duration.ofSeconds(20))).as("exit after SIGTERM").isIn(0, 143);
            System.out.printf("Leader elected %d ms after kill -9, %d ms after a graceful shutdown (lease %d ms)%n",
                    electedAfterKill / 1_000_000, handOver / 1_000_000, LEASE_MILLIS);
        } finally {
            for (Processes.Contender process : processes) {
                if (process.isAlive()) {
                    signal("-CONT", process.pid());
                    new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).inheritIO().start().waitFor();
                    process.awaitExit(Duration.ofSeconds(20));
                }
            }
            redis.shutdown();
        }
        assertNoOverlapAndRisingTerms(logOf, killedPid, killedAt);
    }

    private void start(RedisServer redis, List<Processes.Contender> processes, Map<Long, Path> logOf)
            throws Exception {
        Path log = Files.createTempFile(logs, "leader-", ".log");
        Processes.Contender process = Processes.start(List.of("-Dquarkus.redis.hosts=" + redis.uri(),
                "-Dquarkus.lock.leadership.harness.lease=" + LEASE_MILLIS + "ms",
                "-Dquarkus.lock.leadership.harness.renew-interval=" + RENEW_MILLIS + "ms",
                "-Dquarkus.lock.leadership.harness.safety-margin=" + MARGIN_MILLIS + "ms",
                "-Dquarkus.lock.operation-timeout=1s"), "lead", log.toString());
        process.awaitLine("READY", Duration.ofSeconds(60));
        processes.add(process);
        logOf.put(process.pid(), log);
    }

    /** Waits up to ten seconds for a process other than {@code not} to lead (an open term in its log). */
    private static Processes.Contender awaitLeader(List<Processes.Contender> processes, Map<Long, Path> logOf,
            Processes.Contender not) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() - deadline < 0) {
            for (Processes.Contender process : processes) {
                if (process != not && process.isAlive() && openTerm(logOf.get(process.pid())).isPresent()) {
                    return process;
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError("nobody but " + (not == null ? "none" : not.pid()) + " led within 10 s");
    }

    /** @return the term the log began and did not end yet */
    private static Optional<Long> openTerm(Path log) throws IOException {
        Long open = null;
        for (String line : Files.readAllLines(log)) {
            String[] parts = line.split(" ");
            if (parts[0].equals("B")) {
                open = Long.parseLong(parts[1]);
            } else if (parts[0].equals("E") || parts[0].equals("X")) {
                open = null;
            }
        }
        return Optional.ofNullable(open);
    }

    private static long firstBeginAfter(Path log, long nanos) throws IOException {
        return Files.readAllLines(log).stream().filter(line -> line.startsWith("B "))
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

    private static void assertNoOverlapAndRisingTerms(Map<Long, Path> logOf, long killedPid, long killedAt)
            throws IOException {
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
        assertThat(beliefs).as("terms: kill, freeze, shutdown and the last").hasSizeGreaterThanOrEqualTo(4);
        for (int i = 1; i < beliefs.size(); i++) {
            Belief before = beliefs.get(i - 1);
            Belief after = beliefs.get(i);
            assertThat(after.term()).as("terms rise: %s then %s", before, after).isGreaterThan(before.term());
            assertThat(after.begin()).as("no overlap: %s then %s", before, after).isGreaterThan(before.end());
        }
        System.out.println("Beliefs: " + beliefs);
    }

    private static void signal(String signal, long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start().waitFor()).isZero();
    }
}
