package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The temporary directories of {@link PostgresServer}s: each names the JVM that made it, so a later run can stop and
 * delete the servers of a JVM that died without stopping them.
 */
final class PostgresDirectories {

    private static final String DIRECTORY_PREFIX = "quarkus-lock-pg-";
    private static final String OWNER_FILE = "owner.pid";

    private PostgresDirectories() {
    }

    /**
     * @return a new temporary directory, owned by this JVM
     * @throws IOException if it could not be made
     */
    static Path create() throws IOException {
        Path directory = Files.createTempDirectory(DIRECTORY_PREFIX);
        Files.writeString(directory.resolve(OWNER_FILE), Long.toString(ProcessHandle.current().pid()));
        return directory;
    }

    /** Stops and deletes the servers of earlier test JVMs that died without stopping them (such as after kill -9). */
    static void reapOrphans() {
        Path temp = Paths.get(System.getProperty("java.io.tmpdir"));
        try (Stream<Path> entries = Files.list(temp)) {
            for (Path candidate : entries.filter(p -> p.getFileName().toString().startsWith(DIRECTORY_PREFIX))
                    .toList()) {
                Path ownerFile = candidate.resolve(OWNER_FILE);
                long owner;
                try {
                    owner = Long.parseLong(Files.readString(ownerFile).strip());
                } catch (IOException | NumberFormatException unreadable) {
                    continue;
                }
                if (ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) {
                    continue;
                }
                Path data = candidate.resolve("data");
                if (Files.exists(data.resolve("postmaster.pid"))) {
                    try {
                        PostgresCommands.asServerUser(
                                List.of(PostgresCommands.binary("pg_ctl"), "-D", data.toString(), "-m", "immediate", "-w",
                                        "stop"));
                    } catch (RuntimeException alreadyGone) {
                        // its postmaster is gone too
                    }
                }
                delete(candidate);
            }
        } catch (IOException e) {
            // nothing to reap
        }
    }

    /**
     * Deletes a directory and all it holds, as far as it can.
     */
    static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            // a temporary directory left behind is deleted by the next run's reaping, or by the system
        }
    }
}
