package io.quarkiverse.lock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * A program that starts a server and ends without closing it (a Quarkus main ends in {@code System.exit}; a user
 * presses Ctrl-C) must not leave the server running: the benchmark once left its redis-server running for hours.
 */
class RedisServerExitTest {

    @Test
    void aServerIsStoppedWhenItsJvmExitsWithoutClosingIt() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                ExitingProgram.class.getName()).redirectErrorStream(true).start();
        long serverPid;
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertThat(line).as("the child's first line: the server's pid").startsWith("pid ");
            serverPid = Long.parseLong(line.substring(4).trim());
        }
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).as("the child exited").isTrue();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        Optional<ProcessHandle> server = ProcessHandle.of(serverPid);
        while (server.isPresent() && server.get().isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            server = ProcessHandle.of(serverPid);
        }
        boolean stillRunning = server.isPresent() && server.get().isAlive();
        server.filter(ProcessHandle::isAlive).ifPresent(ProcessHandle::destroyForcibly);
        assertThat(stillRunning).as("redis-server %d still runs after its JVM exited", serverPid).isFalse();
    }

    /** Starts a server, says its pid, and exits without closing it. */
    public static final class ExitingProgram {

        public static void main(String... args) {
            RedisServer server = RedisServer.start();
            System.out.println("pid " + server.pid());
            System.out.flush();
            System.exit(0);
        }
    }
}
