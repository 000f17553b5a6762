package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.quarkiverse.lock.tck.faults.HistoryChecker;
import io.quarkiverse.lock.tck.faults.LockOperation;
import io.quarkiverse.lock.testsupport.RedisSentinelGroup;
import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * Failovers of a Sentinel group, one after another, under three JVM processes of the harness build that locks on the
 * Redis client {@code locks}, which follows the primary the sentinels name; the section log and its history stay in a
 * redis-server of their own, on whose clock every time here is read. The processes contend on four keys in
 * {@code ride-out} mode (a section that meets a store failure tries again; one whose lock was found lost at its
 * release is counted) and go on after their share of sections until, after each failover, every one of them
 * acquired a lock after the former primary was a replica again, so on the new primary, the only one left. The run
 * returns what it measured; the caller asserts what its configuration promises.
 */
final class SentinelFailoverRun {

    private static final int PROCESSES = 3;
    private static final int KEYS = 4;
    private static final int WORKERS_PER_PROCESS = 8;
    private static final int SECTIONS_PER_PROCESS = 2_000;
    /** How many sections all processes ran before the first failover: all of them are contending by then. */
    private static final int SECTIONS_BEFORE = 600;
    private static final Duration BOUND = Duration.ofMinutes(2);
    private static final String LOG = "sections";
    private static final String HISTORY = "{" + LOG + "}:history";

    /** How the primary goes away. */
    enum Failover {
        /** {@code SENTINEL FAILOVER}: the primary keeps running and becomes a replica of the promoted one. */
        FORCED,
        /**
         * {@code SIGKILL} of the primary: the sentinels promote the replica once it is down for a second; the killed
         * server is started again as a replica of the new primary a few seconds later, as an operator would restore
         * it.
         */
        CRASH
    }

    /**
     * What one failover measured, in milliseconds after it was asked for (the kill, or {@code SENTINEL FAILOVER}).
     *
     * @param failover how the primary went away
     * @param asked when it was asked for, in microseconds on the log's clock
     * @param newPrimaryMillis when every sentinel named the new primary
     * @param replicaMillis when the former primary was a replica of the new one, in sync
     * @param longestPauseMillis the longest time between two acquisitions, of any process, during the failover
     * @param resumedMillis when that pause ended
     * @param onNewPrimaryMillis when the last process to do so acquired a lock it asked for after the former primary
     *        was a replica
     */
    record FailoverFigures(Failover failover, long asked, long newPrimaryMillis, long replicaMillis,
            long longestPauseMillis, long resumedMillis, long onNewPrimaryMillis) {

        /**
         * @return the figures in one sentence
         */
        String describe() {
            return String.format("%s: new primary named after %d ms, former primary a replica in sync after %d ms; "
                    + "longest pause between acquisitions %d ms, ended after %d ms; every process acquired on the "
                    + "new primary by %d ms", failover, newPrimaryMillis, replicaMillis, longestPauseMillis,
                    resumedMillis, onNewPrimaryMillis);
        }
    }

    /**
     * What a run measured.
     *
     * @param startMillis how long the processes took to start and run the sections before the first failover
     * @param failovers each failover's figures
     * @param sections how many sections ran, as the section log has them
     * @param minimumSections how many sections the processes had to run at least
     * @param failures store failures the sections met and tried again after
     * @param lost sections whose lock was found lost at their release ({@code LockExpiredException})
     * @param violations what the section log shows wrong: overlapping sections, tokens not rising
     * @param history the history check's verdict on the acquisitions and releases
     * @param untold the history's overlaps in which every hold's release took effect: a lock granted twice without
     *        either holder being told
     */
    record Figures(long startMillis, List<FailoverFigures> failovers, long sections, long minimumSections,
            long failures, long lost, List<String> violations, HistoryChecker.Verdict history,
            List<HistoryChecker.Violation> untold) {

        /**
         * @return the section-log violations that are fencing tokens not rising
         */
        List<String> tokenViolations() {
            return violations.stream().filter(violation -> violation.contains(" is not above ")).toList();
        }

        /**
         * @return the figures in one paragraph, for the test's output
         */
        String describe() {
            StringBuilder text = new StringBuilder(String.format("processes started and ran %d sections in %d ms",
                    SECTIONS_BEFORE, startMillis));
            for (FailoverFigures failover : failovers) {
                text.append("; ").append(failover.describe());
            }
            return text.append(String.format("; %d sections (at least %d), %d store failures ridden out, %d holds "
                    + "found lost at release, %d section-log violations (%d of token order); %s; %d overlaps without "
                    + "a holder told", sections, minimumSections, failures, lost, violations.size(),
                    tokenViolations().size(), history.summary(), untold.size())).toString();
        }
    }

    private SentinelFailoverRun() {
    }

    /**
     * Runs the processes through the failovers; fails if a process does not exit with code 0, or does not acquire on
     * the new primary after each failover.
     *
     * @param group the Sentinel group, with a primary and a replica in sync
     * @param settings the processes' lock settings, as {@code -Dname=value}, besides the Redis clients
     * @param failovers how the primary goes away, each in turn
     * @return what the run measured
     */
    static Figures run(RedisSentinelGroup group, List<String> settings, Failover... failovers) throws Exception {
        group.awaitReplica(group.replicaPort());
        RedisServer log = RedisServer.start();
        List<String> properties = new ArrayList<>(settings);
        properties.addAll(List.of("-Dquarkus.redis.hosts=" + log.uri(),
                "-Dquarkus.redis.locks.hosts=" + group.hosts(), "-Dquarkus.redis.locks.client-type=sentinel",
                "-Dquarkus.redis.locks.master-name=" + RedisSentinelGroup.MASTER_NAME,
                "-Dquarkus.lock.operation-timeout=1s"));
        List<Processes.Contender> contenders = new ArrayList<>();
        try {
            long start = System.nanoTime();
            for (int i = 0; i < PROCESSES; i++) {
                contenders.add(Processes.startOnRedisLocks(properties, "contend", Integer.toString(KEYS),
                        Integer.toString(SECTIONS_PER_PROCESS), Integer.toString(WORKERS_PER_PROCESS), LOG,
                        "ride-out", "until-stopped"));
            }
            awaitSections(log.port(), SECTIONS_BEFORE, contenders);
            long startMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
            List<long[]> times = new ArrayList<>();
            for (Failover failover : failovers) {
                times.add(failOver(group, failover, log.port(), contenders));
            }
            Processes.setFlag(log.port(), "{" + LOG + "}:stop");

            long failures = 0;
            long lost = 0;
            for (Processes.Contender contender : contenders) {
                assertThat(contender.awaitExit(BOUND)).as("exit code of process %d; it printed:%n%s",
                        contender.pid(), contender.output()).isZero();
                failures += count(contender, "FAILED");
                lost += count(contender, "LOST");
            }
            List<String> sections = Processes.readList(log.port(), LOG);
            List<String> lines = Processes.readList(log.port(), HISTORY);
            List<LockOperation> history = operations(lines);
            List<FailoverFigures> figures = new ArrayList<>();
            for (int i = 0; i < failovers.length; i++) {
                figures.add(figures(failovers[i], times.get(i), history));
            }
            HistoryChecker.Verdict verdict = RecordedHistory.verdict(lines);
            return new Figures(startMillis, figures, SectionLog.sections(sections),
                    (long) PROCESSES * SECTIONS_PER_PROCESS, failures, lost, SectionLog.violations(sections), verdict,
                    untold(verdict, history));
        } finally {
            contenders.forEach(Processes.Contender::close);
            log.shutdown();
        }
    }

    /**
     * Makes the primary go away and waits until every process acquired on the new one.
     *
     * @return on the log's clock: when the failover was asked for, when the sentinels named the new primary, when the
     *         former one was a replica again, and when the last process acquired after that
     */
    private static long[] failOver(RedisSentinelGroup group, Failover failover, int logPort,
            List<Processes.Contender> contenders) throws Exception {
        long asked = Processes.serverTimeMicros(logPort);
        int formerPrimary;
        if (failover == Failover.FORCED) {
            formerPrimary = group.failover();
        } else {
            formerPrimary = group.primaryPort();
            group.kill(formerPrimary);
        }
        group.awaitFailover(formerPrimary);
        long named = Processes.serverTimeMicros(logPort);
        if (failover == Failover.FORCED) {
            group.awaitReplica(formerPrimary);
        } else {
            // At once: a process may still find the killed server's address in its client's topology cache
            // (quarkus.redis.locks.topology-cache-ttl) and open its lock connection there, on a replica by then; the
            // store gives such a connection up at its first READONLY reply.
            group.restartAsReplica(formerPrimary);
        }
        long replica = Processes.serverTimeMicros(logPort);
        return new long[] { asked, named, replica, awaitAcquisitionsAfter(logPort, replica, contenders) };
    }

    private static FailoverFigures figures(Failover failover, long[] times, List<LockOperation> history) {
        long asked = times[0];
        long[] completions = history.stream().filter(SentinelFailoverRun::isAcquisition)
                .mapToLong(LockOperation::completed).sorted().toArray();
        long longest = 0;
        long resumed = asked;
        for (int i = 1; i < completions.length; i++) {
            long pause = completions[i] - Math.max(completions[i - 1], asked);
            if (completions[i] > asked && completions[i - 1] <= times[3] && pause > longest) {
                longest = pause;
                resumed = completions[i];
            }
        }
        return new FailoverFigures(failover, asked, millis(times[1] - asked), millis(times[2] - asked),
                millis(longest), millis(resumed - asked), millis(times[3] - asked));
    }

    /** The overlaps in which no hold's release failed: a lock granted twice without either holder being told. */
    private static List<HistoryChecker.Violation> untold(HistoryChecker.Verdict verdict,
            List<LockOperation> history) {
        Set<String> told = new HashSet<>();
        for (LockOperation operation : history) {
            if (operation.kind() == LockOperation.Kind.RELEASE && operation.outcome() != LockOperation.Outcome.OK) {
                told.add(operation.hold());
            }
        }
        return verdict.violations().stream().filter(violation -> violation.kind().equals("OVERLAP"))
                .filter(violation -> violation.operations().stream().noneMatch(op -> told.contains(op.hold())))
                .toList();
    }

    /** Waits until the section log has {@code count} sections, failing with the processes' output if not. */
    private static void awaitSections(int port, long count, List<Processes.Contender> contenders) throws Exception {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (Processes.listLength(port, LOG) < 2 * count) {
            assertThat(System.nanoTime() - deadline).as("%d sections within %s; the processes printed:%n%s", count,
                    BOUND, outputs(contenders)).isNegative();
            Thread.sleep(50);
        }
    }

    /**
     * Waits until every process acquired a lock it asked for after {@code after}, reading the end of the history.
     *
     * @return when the last of them completed that acquisition, on the log's clock
     */
    private static long awaitAcquisitionsAfter(int port, long after, List<Processes.Contender> contenders)
            throws Exception {
        Set<String> pending = new HashSet<>();
        contenders.forEach(contender -> pending.add(Long.toString(contender.pid())));
        long last = after;
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!pending.isEmpty()) {
            assertThat(System.nanoTime() - deadline).as("every process acquired on the new primary within %s; "
                    + "processes %s did not; they printed:%n%s", BOUND, pending, outputs(contenders)).isNegative();
            for (LockOperation operation : operations(Processes.readListTail(port, HISTORY, 2_000))) {
                if (isAcquisition(operation) && operation.invoked() > after && pending.remove(process(operation))) {
                    last = Math.max(last, operation.completed());
                }
            }
            Thread.sleep(100);
        }
        return last;
    }

    private static List<LockOperation> operations(List<String> lines) {
        List<LockOperation> operations = new ArrayList<>();
        for (String line : lines) {
            operations.add(LockOperation.parse(operations.size() + 1, line));
        }
        return operations;
    }

    private static boolean isAcquisition(LockOperation operation) {
        return operation.kind() == LockOperation.Kind.ACQUIRE && operation.outcome() == LockOperation.Outcome.OK;
    }

    /** The process of an operation: its handle is {@code <identity>@<pid>}. */
    private static String process(LockOperation operation) {
        return operation.handle().substring(operation.handle().indexOf('@') + 1);
    }

    private static long count(Processes.Contender contender, String prefix) throws InterruptedException {
        return Long.parseLong(contender.awaitLine(prefix, Duration.ofSeconds(1)).split(" ")[1]);
    }

    private static String outputs(List<Processes.Contender> contenders) {
        StringBuilder outputs = new StringBuilder();
        for (Processes.Contender contender : contenders) {
            outputs.append("process ").append(contender.pid()).append(contender.isAlive() ? "" : " (exited)")
                    .append(":\n").append(contender.output()).append('\n');
        }
        return outputs.toString();
    }

    private static long millis(long micros) {
        return micros / 1_000;
    }
}
