package io.quarkiverse.lock.samples.office;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.testsupport.RedisServer;

/**
 * The documented second mode of the demo: the packaged application starts its instances as separate processes on one
 * redis-server, and with the lock no seat is sold twice.
 */
class TicketOfficeDemoIT {

    @Test
    void threeInstancesOnOneRedisSellNoSeatTwiceWithTheLock() throws IOException, InterruptedException {
        RedisServer redis = RedisServer.start();
        try {
            Process demo = new ProcessBuilder(List.of(ProcessHandle.current().info().command().orElse("java"),
                    "-Dquarkus.redis.hosts=" + redis.uri(), "-jar", System.getProperty("demo.application")))
                    .redirectErrorStream(true).start();
            String output = new String(demo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(demo.waitFor(3, TimeUnit.MINUTES)).isTrue();

            assertThat(demo.exitValue()).as(output).isZero();
            assertThat(output).contains("Round 1: without a lock", "Round 2: with a lock per seat",
                    "With a lock per seat no seat was sold twice, across 3 instances.");
            String lockedRound = output.substring(output.indexOf("Round 2"));
            String lastProgress = lockedRound.substring(lockedRound.lastIndexOf('\r') + 1);
            assertThat(lastProgress).contains("  0 sold twice");
        } finally {
            redis.shutdown();
        }
    }
}
