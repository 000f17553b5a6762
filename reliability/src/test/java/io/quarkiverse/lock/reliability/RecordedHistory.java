package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.lock.tck.faults.HistoryChecker;
import io.quarkiverse.lock.tck.faults.LockOperation;

/**
 * The history of acquisitions and releases the harness's processes wrote to the section log's redis-server (their
 * {@code OperationLog}), checked against a fenced mutex whose holds may end by lease expiry ({@link HistoryChecker}).
 */
final class RecordedHistory {

    private RecordedHistory() {
    }

    /**
     * Records, for every hold in the history that was never released, that its process is dead: a release whose
     * outcome is unknown, invoked now. Until a process is known dead it may believe it holds its lock (a paused one
     * does), so the check then treats such a hold as held until now, which only its lease's end excuses: another hold
     * of the key granted before that end is an overlap.
     *
     * @param logPort the port of the redis-server that keeps the history
     * @param log the name of the log it belongs to
     */
    static void recordDeathOfHolders(int logPort, String log) throws Exception {
        String list = "{" + log + "}:history";
        long now = Processes.serverTimeMicros(logPort);
        List<LockOperation> history = read(logPort, log);
        for (LockOperation acquired : history) {
            boolean released = history.stream().anyMatch(operation -> operation.kind() == LockOperation.Kind.RELEASE
                    && operation.hold().equals(acquired.hold()));
            if (acquired.kind() == LockOperation.Kind.ACQUIRE && acquired.outcome() == LockOperation.Outcome.OK
                    && !released) {
                Processes.append(logPort, list, new LockOperation(0, acquired.name(), LockOperation.Kind.RELEASE,
                        acquired.key(), acquired.handle(), acquired.reentrant(), acquired.overriding(), 0, now, now,
                        LockOperation.Outcome.UNKNOWN, acquired.token()).line());
            }
        }
    }

    /**
     * Reads the history, checks it, and prints its verdict.
     *
     * @param logPort the port of the redis-server that keeps it
     * @param log the name of the log it belongs to: the contention run's log, or the key of the other roles
     * @param holds how many holds the processes reported: the history must have that many
     * @return the verdict, which has no violation
     */
    static HistoryChecker.Verdict check(int logPort, String log, long holds) throws Exception {
        HistoryChecker.Verdict verdict = HistoryChecker.check(read(logPort, log), 0);
        assertThat(verdict.holds()).as("the holds in the history of %s", log).isEqualTo(holds);
        assertThat(verdict.violations()).as(verdict.describe(0, 5)).isEmpty();
        System.out.println(verdict.summary());
        return verdict;
    }

    /**
     * @param lines the history's operations, as the harness writes them
     * @return the verdict of the history, which the caller judges
     */
    static HistoryChecker.Verdict verdict(List<String> lines) {
        return HistoryChecker.check(parse(lines), 0);
    }

    private static List<LockOperation> read(int logPort, String log) throws Exception {
        return parse(Processes.readList(logPort, "{" + log + "}:history"));
    }

    private static List<LockOperation> parse(List<String> lines) {
        List<LockOperation> history = new ArrayList<>();
        for (String line : lines) {
            history.add(LockOperation.parse(history.size() + 1, line));
        }
        return history;
    }
}
