package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A private PostgreSQL server for tests: {@code initdb} into a temporary directory, {@code pg_ctl start} on a free
 * loopback port with its unix socket in that directory, never the system's cluster. Run as the {@code postgres} OS
 * user when the tests run as root (PostgreSQL refuses to run as root), directly otherwise.
 * <p>
 * The binaries are taken from {@code PG_BIN} if set, else the folder {@code pg_config --bindir} names, else the newest
 * {@code /usr/lib/postgresql/<version>/bin}, else the {@code PATH}. TCP clients log in with a password
 * (SCRAM); {@link #sql} runs statements as the superuser over the unix socket.
 * <p>
 * A server is stopped and its directory deleted by {@link #close()}, by a JVM shutdown hook, and at the end of the
 * JUnit run ({@link PostgresServers}), whichever comes first; a server left behind by a JVM that was killed is
 * stopped and deleted by the next test run that starts one. {@link #shared()} starts one server per JVM;
 * {@link #ownedBy(Class)} one per test class that stops or restarts its server; both are found again by the copies of
 * this class that Quarkus test class loaders make.
 */
public final class PostgresServer extends LocalServer {

    /** The superuser, for TCP clients. */
    public static final String SUPERUSER = "postgres";
    /** The superuser's password. */
    public static final String SUPERUSER_PASSWORD = "pg-test-superuser";
    /** The database tests connect to. */
    public static final String DATABASE = "postgres";

    private static final Set<PostgresServer> STARTED = ConcurrentHashMap.newKeySet();
    private static final ServerDirectories DIRECTORIES = new ServerDirectories("quarkus-lock-pg-",
            PostgresServer::stopOrphan);

    private PostgresServer(int port, Path directory) {
        super(port, directory);
    }

    /**
     * @return the server shared by every test of this JVM, started on first use
     */
    public static PostgresServer shared() {
        return ownedBy(PostgresServer.class);
    }

    /**
     * A server of the test class's own, for tests that stop or restart it: started on first use, and found again (by
     * its port and directory, published as system properties) by the copies of the test class that Quarkus class
     * loaders make.
     *
     * @param testClass the test class that owns the server
     * @return the server
     */
    public static PostgresServer ownedBy(Class<?> testClass) {
        return published(testClass.getName() + ".pg", PostgresServer::new, PostgresServer::start);
    }

    /**
     * Initializes a new cluster in a temporary directory and starts it on a free loopback port.
     *
     * @return the running server
     * @throws IllegalStateException if it could not be started
     */
    public static PostgresServer start() {
        DIRECTORIES.reapOrphans();
        try {
            Path directory = DIRECTORIES.create();
            PostgresServer server = new PostgresServer(LoopbackPorts.free(), directory);
            STARTED.add(server);
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "postgres-stop"));
            if (PostgresCommands.asRoot()) {
                PostgresCommands.run(List.of("chown", "-R", SUPERUSER, directory.toString()));
            }
            Path passwordFile = directory.resolve("superuser-password");
            Files.writeString(passwordFile, SUPERUSER_PASSWORD);
            PostgresCommands.asServerUser(
                    List.of(PostgresCommands.binary("initdb"), "-D", server.data().toString(), "-U", SUPERUSER, "-E", "UTF8",
                            "--locale=C", "--no-sync", "--auth-host=scram-sha-256", "--auth-local=trust",
                            "--pwfile=" + passwordFile));
            server.restart();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not prepare a PostgreSQL data directory", e);
        }
    }

    /**
     * @return the server's address for the reactive client, {@code postgresql://127.0.0.1:<port>/postgres}
     */
    public String url() {
        return "postgresql://127.0.0.1:" + port + "/" + DATABASE;
    }

    /**
     * Stops the server (fast shutdown: sessions are ended, as a server going down would end them); its data stay, so
     * {@link #restart()} brings it back.
     */
    public void stop() {
        if (Files.exists(data().resolve("postmaster.pid"))) {
            PostgresCommands.asServerUser(List.of(PostgresCommands.binary("pg_ctl"), "-D", data().toString(), "-m", "fast",
                    "-w", "-t", "60", "stop"));
        }
    }

    /**
     * Starts the server again on its port, after {@link #stop()}.
     */
    public void restart() {
        try {
            PostgresCommands.asServerUser(List.of(PostgresCommands.binary("pg_ctl"), "-D", data().toString(), "-l",
                    directory.resolve("server.log")
                            .toString(),
                    "-w", "-t", "60", "-o",
                    "-p " + port + " -k " + directory
                            + " -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off"
                            + " -c full_page_writes=off -c max_connections=300",
                    "start"));
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "\nserver log:\n" + log(), e);
        }
    }

    /**
     * Runs SQL as the superuser over the unix socket.
     *
     * @param sql one or more statements
     * @return what {@code psql} printed: unaligned, tuples only
     * @throws IllegalStateException if a statement failed
     */
    public String sql(String sql) {
        return PostgresCommands.run(List.of(PostgresCommands.binary("psql"), "-h", directory.toString(), "-p",
                Integer.toString(port), "-U", SUPERUSER,
                "-d", DATABASE, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql)).strip();
    }

    /**
     * @return the process id of the server's postmaster, whose children are its backends
     * @throws IllegalStateException if the server is not running
     */
    public long postmasterPid() {
        try {
            return Long.parseLong(Files.readAllLines(data().resolve("postmaster.pid")).get(0).strip());
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("The PostgreSQL server in " + directory + " is not running", e);
        }
    }

    /**
     * Makes the server hang ({@code SIGSTOP} to the postmaster and every backend, which together are the server): it
     * keeps its connections and answers nothing until {@link #resume()}.
     *
     * @throws IllegalStateException if the server is not running or the signal could not be sent
     */
    public void pause() {
        ProcessSignals.send("-STOP", serverPids());
    }

    /**
     * Lets a server paused by {@link #pause()} go on ({@code SIGCONT} to the postmaster and every backend).
     *
     * @throws IllegalStateException if the server is not running or the signal could not be sent
     */
    public void resume() {
        ProcessSignals.send("-CONT", serverPids());
    }

    private List<Long> serverPids() {
        long postmaster = postmasterPid();
        List<Long> pids = new ArrayList<>(List.of(postmaster));
        ProcessHandle.of(postmaster).ifPresent(handle -> handle.descendants().forEach(child -> pids.add(child.pid())));
        return pids;
    }

    /**
     * Stops the server and deletes its directory. Idempotent.
     */
    @Override
    public void close() {
        STARTED.remove(this);
        if (!Files.exists(directory)) {
            return;
        }
        try {
            stop();
        } catch (RuntimeException e) {
            System.err.println("Could not stop the PostgreSQL server in " + directory + ": " + e.getMessage());
        }
        ServerDirectories.delete(directory);
    }

    /** Stops every server this JVM started and has not closed yet. */
    static void closeAll() {
        for (PostgresServer server : List.copyOf(STARTED)) {
            server.close();
        }
    }

    /** Stops, without waiting for its sessions, the server an earlier JVM left running in {@code directory}. */
    private static void stopOrphan(Path directory) {
        Path data = directory.resolve("data");
        if (Files.exists(data.resolve("postmaster.pid"))) {
            try {
                PostgresCommands.asServerUser(List.of(PostgresCommands.binary("pg_ctl"), "-D", data.toString(), "-m",
                        "immediate", "-w", "stop"));
            } catch (RuntimeException alreadyGone) {
                // its postmaster is gone too
            }
        }
    }
}
