package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The {@code redis-server} process a {@link RedisServer} started: launched in a temporary directory of its own
 * (its log, no persistence), waited for until it answers, and stopped with its directory deleted.
 */
final class RedisProcess {

    /** How long a new server has to answer. */
    static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(20);

    private final Process process;
    private final Path directory;

    private RedisProcess(Process process, Path directory) {
        this.process = process;
        this.directory = directory;
    }

    /**
     * @param port the port to listen on, on 127.0.0.1
     * @param settings extra {@code redis-server} arguments
     * @return the process, started but maybe not listening yet
     * @throws IllegalStateException if {@code redis-server} could not be started
     */
    static RedisProcess launch(int port, String... settings) {
        String binary = System.getenv().getOrDefault("REDIS_SERVER", "redis-server");
        try {
            Path directory = Files.createTempDirectory("quarkus-lock-redis");
            List<String> command = new ArrayList<>(List.of(binary, "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", directory.toString()));
            command.addAll(List.of(settings));
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(directory.resolve("redis.log").toFile())
                    .start();
            return new RedisProcess(process, directory);
        } catch (IOException e) {
            throw new IllegalStateException("Could not start " + binary + ": install the redis-server package, "
                    + "or set REDIS_SERVER to its path", e);
        }
    }

    /**
     * @return the process id
     */
    long pid() {
        return process.pid();
    }

    /**
     * Waits until the server answers.
     *
     * @param answers whether the server answers now
     * @return {@code true} once it answered; {@code false} if it did not within {@link #STARTUP_TIMEOUT}
     * @throws IllegalStateException if the process exited
     */
    boolean awaitReady(BooleanSupplier answers) {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with " + process.exitValue() + ": "
                        + readLog());
            }
            if (answers.getAsBoolean()) {
                return true;
            }
            sleep(Duration.ofMillis(20));
        }
        return false;
    }

    /**
     * Stops the process (forcibly after 10 s) and deletes its directory.
     */
    void stop() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        deleteQuietly(directory.resolve("redis.log"));
        deleteQuietly(directory);
    }

    private String readLog() {
        try {
            return Files.readString(directory.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for redis-server", e);
        }
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // a temporary file left behind is harmless
        }
    }
}
