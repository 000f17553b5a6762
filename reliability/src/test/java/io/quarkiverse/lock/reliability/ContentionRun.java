package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The contention run of the reliability tests, on whichever store: three JVM processes of the harness run critical
 * sections on four keys, and the shared log of every section start and end, ordered by Redis, proves that no two
 * sections of one key overlapped and that fencing tokens strictly increased; the history of their acquisitions and
 * releases, on the clock of that Redis server, is checked against a fenced mutex ({@link RecordedHistory}). CI-sized: 21,000
 * sections;
 * {@code -Dreliability.soak=true}: 300,000.
 */
final class ContentionRun {

    private static final int PROCESSES = 3;
    private static final int KEYS = 4;
    private static final int WORKERS_PER_PROCESS = 8;

    /** Starts one process of the harness, locking on the store under test. */
    @FunctionalInterface
    interface Starter {

        /**
         * @param args the role and its arguments
         * @return the started process
         */
        Processes.Contender start(String... args) throws IOException;
    }

    private ContentionRun() {
    }

    /**
     * Runs the contention and checks its section log; fails if a process fails or the log shows a violation.
     *
     * @param starter starts each process
     * @param exited checks each process once it exited with code 0 (such as the build it ran)
     * @param logPort the port of the redis-server that keeps the section log
     * @param store the store, as the summary printed at the end names it
     */
    static void contend(Starter starter, Consumer<Processes.Contender> exited, int logPort, String store)
            throws Exception {
        boolean soak = Boolean.getBoolean("reliability.soak");
        int sectionsPerProcess = soak ? 100_000 : 7_000;
        List<Processes.Contender> contenders = new ArrayList<>();
        try {
            long start = System.nanoTime();
            for (int i = 0; i < PROCESSES; i++) {
                contenders.add(starter.start("contend", Integer.toString(KEYS), Integer.toString(sectionsPerProcess),
                        Integer.toString(WORKERS_PER_PROCESS), "sections"));
            }
            for (Processes.Contender contender : contenders) {
                assertThat(contender.awaitExit(Duration.ofMinutes(soak ? 60 : 10))).as(contender.output()).isZero();
                exited.accept(contender);
            }
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);

            List<String> log = Processes.readList(logPort, "sections");
            assertThat(SectionLog.sections(log)).isEqualTo((long) PROCESSES * sectionsPerProcess);
            assertThat(SectionLog.violations(log)).isEmpty();
            System.out.printf("Checked %d critical sections of %d processes on %d keys of %s in %d ms: no overlap, "
                    + "tokens strictly increasing%n", SectionLog.sections(log), PROCESSES, KEYS, store,
                    elapsed.toMillis());
            RecordedHistory.check(logPort, "sections", (long) PROCESSES * sectionsPerProcess);
        } finally {
            contenders.forEach(Processes.Contender::close);
        }
    }
}
