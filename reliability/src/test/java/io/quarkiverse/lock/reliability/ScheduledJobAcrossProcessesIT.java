package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * Two JVM processes on one redis-server run the same {@code @Scheduled(every = "1s")} job under
 * {@code @Locked(waitTime = "0s", whenBusy = SKIP)} for about ten seconds, the second started about 300 ms after the
 * first and with its clock 300 ms behind: the simple scheduler fires at whole seconds of each JVM's clock, so on one
 * machine only a clock offset (which {@link ScheduledReport}'s {@code @LateClock} simulates) separates their firings,
 * as clock skew, or a scheduler counting from each instance's start, does between machines. The job exists twice in
 * each process, on keys of its own: with {@code holdAtLeast = "500ms"} it runs once per period (once per second of
 * the first process's clock) and never twice in one; without it, the second process finds the lock free 300 ms after
 * the first one's 50 ms run ended and runs the job again, so nearly every period has two runs. The second half proves
 * that the first guards against a real failure.
 */
class ScheduledJobAcrossProcessesIT {

    private static final Duration WINDOW = Duration.ofSeconds(10);
    private static final Duration STARTUP = Duration.ofMinutes(2);

    @Test
    void withHoldAtLeastTwoOffsetProcessesRunTheJobOncePerPeriodAndWithoutItTwice() throws Exception {
        RedisServer redis = RedisServer.start();
        List<Processes.Contender> processes = new ArrayList<>();
        try {
            List<String> settings = List.of("-Dquarkus.redis.hosts=" + redis.uri(),
                    "-Dreliability.with-hold-at-least.every=1s", "-Dreliability.without-hold-at-least.every=1s");
            processes.add(Processes.start(settings, "schedule"));
            processes.get(0).awaitLine("SCHEDULING", STARTUP);
            Thread.sleep(300);
            List<String> late = new ArrayList<>(settings);
            late.add("-Dreliability.clock-offset=300ms");
            processes.add(Processes.start(late, "schedule"));
            processes.get(1).awaitLine("SCHEDULING", STARTUP);

            long from = System.currentTimeMillis();
            Thread.sleep(WINDOW.toMillis() + 1_000);
            long to = from + WINDOW.toMillis();

            Map<Long, Integer> with = runsPerPeriod(processes, "with", from, to);
            Map<Long, Integer> without = runsPerPeriod(processes, "without", from, to);
            System.out.printf("Two processes 300 ms apart, @Scheduled(every = \"1s\") for %d s: with holdAtLeast "
                    + "%d runs (%s per period), without %d runs (%s per period)%n", WINDOW.toSeconds(), sum(with),
                    with.values(), sum(without), without.values());

            assertThat(with.values()).as("with holdAtLeast, runs per period").allMatch(runs -> runs == 1);
            assertThat(sum(with)).as("with holdAtLeast, about one run per period").isBetween(8, 11);
            assertThat(without.values().stream().filter(runs -> runs >= 2).count())
                    .as("without holdAtLeast, periods with two runs").isGreaterThanOrEqualTo(6);
            assertThat(sum(without)).as("without holdAtLeast, about two runs per period").isGreaterThanOrEqualTo(16);
        } finally {
            processes.forEach(Processes.Contender::close);
            redis.shutdown();
        }
    }

    /**
     * @return the number of runs of the variant in each period (whole second of the clock) between {@code from} and
     *         {@code to}, by period, periods without runs left out
     */
    private static Map<Long, Integer> runsPerPeriod(List<Processes.Contender> processes, String variant, long from,
            long to) {
        Map<Long, Integer> runs = new TreeMap<>();
        for (Processes.Contender process : processes) {
            for (String line : process.output().split("\n")) {
                String[] words = line.split(" ");
                if (words.length == 3 && words[0].equals("RAN") && words[1].equals(variant)) {
                    long at = Long.parseLong(words[2]);
                    if (at >= from && at < to) {
                        runs.merge(at / 1000, 1, Integer::sum);
                    }
                }
            }
        }
        return runs;
    }

    private static int sum(Map<Long, Integer> runsPerPeriod) {
        return runsPerPeriod.values().stream().mapToInt(Integer::intValue).sum();
    }
}
