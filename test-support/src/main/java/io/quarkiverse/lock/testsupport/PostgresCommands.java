package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The PostgreSQL programs a {@link PostgresServer} runs ({@code initdb}, {@code pg_ctl}, {@code psql}): where they
 * are, and running them as the {@code postgres} OS user when the tests run as root.
 */
final class PostgresCommands {

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

    private PostgresCommands() {
    }

    /**
     * @return whether the tests run as root, which PostgreSQL refuses to run as
     */
    static boolean asRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /**
     * @return what the command printed, run as the server's OS user
     * @throws IllegalStateException if it failed
     */
    static String asServerUser(List<String> command) {
        if (!asRoot()) {
            return run(command);
        }
        List<String> wrapped = new ArrayList<>(List.of("runuser", "-u", PostgresServer.SUPERUSER, "--"));
        wrapped.addAll(command);
        return run(wrapped);
    }

    /**
     * @return the path of a PostgreSQL program: from {@code PG_BIN}, {@code pg_config --bindir}, the newest
     *         {@code /usr/lib/postgresql/<version>/bin}, else its bare name for the {@code PATH}
     */
    static String binary(String name) {
        String configured = System.getenv("PG_BIN");
        if (configured != null && !configured.isBlank()) {
            return Paths.get(configured, name).toString();
        }
        try {
            Path bindir = Paths.get(run(List.of("pg_config", "--bindir")).strip());
            if (Files.isExecutable(bindir.resolve(name))) {
                return bindir.resolve(name).toString();
            }
        } catch (RuntimeException noPgConfig) {
            // look further
        }
        Path versions = Paths.get("/usr/lib/postgresql");
        if (Files.isDirectory(versions)) {
            try (Stream<Path> installed = Files.list(versions)) {
                Path newest = installed.filter(dir -> Files.isExecutable(dir.resolve("bin").resolve(name)))
                        .max(Comparator.comparingInt(PostgresCommands::version)).orElse(null);
                if (newest != null) {
                    return newest.resolve("bin").resolve(name).toString();
                }
            } catch (IOException e) {
                // look on the PATH
            }
        }
        return name;
    }

    private static int version(Path dir) {
        try {
            return Integer.parseInt(dir.getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * @return what the command printed (standard output and error)
     * @throws IllegalStateException if it could not run, exited with an error or did not end in time
     */
    static String run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            byte[] output = process.getInputStream().readAllBytes();
            if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not end within " + COMMAND_TIMEOUT);
            }
            String printed = new String(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue()
                        + ": " + printed);
            }
            return printed;
        } catch (IOException e) {
            throw new IllegalStateException("Could not run " + command.get(0) + " (install PostgreSQL: Debian's "
                    + "postgresql package, or set PG_BIN to its bin folder): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + command.get(0), e);
        }
    }
}
