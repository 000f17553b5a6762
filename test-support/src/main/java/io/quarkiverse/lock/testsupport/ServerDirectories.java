package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The temporary directories of the database servers the tests start ({@link PostgresServer}, {@link MariaDbServer}):
 * each names the JVM that made it, so a later run can stop and delete the servers of a JVM that died without stopping
 * them.
 */
final class ServerDirectories {

    private static final String OWNER_FILE = "owner.pid";

    private final String prefix;
    private final Consumer<Path> stopServer;

    /**
     * @param prefix how the names of this kind of server's directories begin
     * @param stopServer stops the server a directory of an earlier JVM holds, as far as it can, throwing nothing
     */
    ServerDirectories(String prefix, Consumer<Path> stopServer) {
        this.prefix = prefix;
        this.stopServer = stopServer;
    }

    /**
     * @return a new temporary directory, owned by this JVM
     * @throws IOException if it could not be made
     */
    Path create() throws IOException {
        Path directory = Files.createTempDirectory(prefix);
        Files.writeString(directory.resolve(OWNER_FILE), Long.toString(ProcessHandle.current().pid()));
        return directory;
    }

    /** Stops and deletes the servers of earlier test JVMs that died without stopping them (such as after kill -9). */
    void reapOrphans() {
        Path temp = Paths.get(System.getProperty("java.io.tmpdir"));
        try (Stream<Path> entries = Files.list(temp)) {
            for (Path candidate : entries.filter(p -> p.getFileName().toString().startsWith(prefix)).toList()) {
                long owner;
                try {
                    owner = Long.parseLong(Files.readString(candidate.resolve(OWNER_FILE)).strip());
                } catch (IOException | NumberFormatException unreadable) {
                    // not one of ours, or still being made
                    continue;
                }
                if (!ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false)) {
                    stopServer.accept(candidate);
                    delete(candidate);
                }
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
