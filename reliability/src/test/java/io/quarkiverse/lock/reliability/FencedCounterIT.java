package io.quarkiverse.lock.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * A holder frozen with {@code SIGSTOP} in the middle of its section, past its lease (a long GC pause, a stopped
 * virtual machine), then resumed, in two JVM processes that increment one counter under one lock: the second process
 * gets the lock once the frozen holder's lease ends and increments five times; the frozen holder then wakes up and
 * writes the value it read before its pause. Its section is told it lost the lock ({@code LockExpiredException}), and
 * its fencing token is below the second process's. Without fencing, its write still lands and five updates are lost;
 * with a resource that refuses stale tokens, it is refused and none is: fencing, not the lock alone, keeps the counter
 * right. In both runs the history of the two processes' acquisitions and releases fits a fenced mutex: the lock kept
 * its promise either way.
 */
class FencedCounterIT {

    private static final Duration STARTUP = Duration.ofMinutes(2);
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final int SECOND_HOLDER_SECTIONS = 5;

    @Test
    void withFencingThePausedHoldersLateWriteIsRefusedAndNoUpdateIsLost() throws Exception {
        Run run = pauseTheHolderMidSection(true);
        assertThat(run.holder).contains("REFUSED " + run.holderToken);
        assertThat(run.counter).as("the counter: every accepted increment, none lost").isEqualTo(SECOND_HOLDER_SECTIONS);
    }

    @Test
    void withoutFencingThePausedHoldersLateWriteLosesTheOtherHoldersUpdates() throws Exception {
        Run run = pauseTheHolderMidSection(false);
        assertThat(run.holder).contains("WROTE " + run.holderToken + " 1");
        assertThat(run.counter).as("the counter: the paused holder overwrote five increments with its stale value")
                .isEqualTo(1);
    }

    private Run pauseTheHolderMidSection(boolean fenced) throws Exception {
        RedisServer redis = RedisServer.start();
        String key = fenced ? "fenced" : "unfenced";
        List<String> settings = List.of("-Dquarkus.redis.hosts=" + redis.uri(),
                "-Dquarkus.lock.expire-after=" + LEASE.toMillis() + "ms");
        try (Processes.Contender holder = Processes.start(settings, "count", key, key + "-counter", "1",
                Boolean.toString(fenced))) {
            long holderToken = Long.parseLong(holder.awaitLine("READ", STARTUP).split(" ")[1]);
            signal("-STOP", holder.pid());
            try (Processes.Contender second = Processes.start(settings, "count", key, key + "-counter",
                    Integer.toString(SECOND_HOLDER_SECTIONS), Boolean.toString(fenced))) {
                second.awaitLine("DONE", STARTUP);
                assertThat(second.output()).as("the second process's sections")
                        .doesNotContain("LOST", "REFUSED");
                long secondToken = Long.parseLong(second.output().lines().filter(line -> line.startsWith("READ"))
                        .findFirst().orElseThrow().split(" ")[1]);
                assertThat(secondToken).as("the second holder's token is above the paused one's")
                        .isGreaterThan(holderToken);
                signal("-CONT", holder.pid());
                holder.awaitLine("DONE", Duration.ofSeconds(30));
                assertThat(holder.output()).as("the paused holder's section is told it lost the lock")
                        .contains("SECTION " + holderToken + " LOST");
                long counter = Long.parseLong(Processes.readValue(redis.port(), key + "-counter"));
                RecordedHistory.check(redis.port(), key, 1 + SECOND_HOLDER_SECTIONS);
                System.out.printf("Holder paused past its %d ms lease mid-section, %s: the other process "
                        + "incremented %d times; the counter reads %d%n", LEASE.toMillis(),
                        fenced ? "fenced" : "unfenced", SECOND_HOLDER_SECTIONS, counter);
                return new Run(holder.output(), holderToken, counter);
            }
        } finally {
            redis.close();
        }
    }

    private static void signal(String signal, long pid) throws Exception {
        assertThat(new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start().waitFor())
                .as("kill %s %d", signal, pid).isZero();
    }

    private record Run(String holder, long holderToken, long counter) {
    }
}
