package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private MariaDB server for tests: {@code mariadb-install-db} into a temporary directory, then {@code mariadbd} on a
 * free loopback port with its unix socket in that directory, never the system's server (Debian's
 * {@code mariadb-server} package provides both programs). Tests log in over TCP as {@link #USER} to the database
 * {@link #DATABASE}; {@link #sql} runs statements as root over the unix socket.
 * <p>
 * The server is stopped by its process id and its directory deleted by {@link #close()} or a JVM shutdown hook; the
 * server of a JVM that was killed is stopped and deleted by the next test run that starts one. {@link #shared()}
 * starts one server per JVM, found again by the copies of this class that Quarkus test class loaders make;
 * {@link #ownedBy(Class)} one per test class that stops and restarts it ({@link #stop()}, {@link #restart()}).
 */
public final class MariaDbServer extends LocalServer {

    /** The user tests connect as, over TCP. */
    public static final String USER = "locks";
    /** Its password. */
    public static final String PASSWORD = "mariadb-test-locks";
    /** The database tests connect to, all of whose privileges {@link #USER} has. */
    public static final String DATABASE = "locks";

    private static final ServerDirectories DIRECTORIES = new ServerDirectories("quarkus-lock-mariadb-",
            MariaDbServer::stopProcess);
    private static final Duration STARTUP = Duration.ofSeconds(60);

    private MariaDbServer(int port, Path directory) {
        super(port, directory);
    }

    /**
     * @return the server shared by every test of this JVM, started on first use
     */
    public static MariaDbServer shared() {
        return published("quarkus-lock.mariadb", MariaDbServer::new, MariaDbServer::start);
    }

    /**
     * A server of the test class's own, for tests that stop or restart it: started on first use, and found again (by
     * its port and directory, published as system properties) by the copies of the test class that Quarkus class
     * loaders make.
     *
     * @param testClass the test class that owns the server
     * @return the server
     */
    public static MariaDbServer ownedBy(Class<?> testClass) {
        return published(testClass.getName() + ".mariadb", MariaDbServer::new, MariaDbServer::start);
    }

    /**
     * Initializes a new data directory in a temporary directory, starts the server on a free loopback port and
     * creates {@link #DATABASE} and {@link #USER}.
     *
     * @return the running server
     * @throws IllegalStateException if it could not be started
     */
    public static MariaDbServer start() {
        DIRECTORIES.reapOrphans();
        try {
            Path directory = DIRECTORIES.create();
            MariaDbServer server = new MariaDbServer(LoopbackPorts.free(), directory);
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "mariadb-stop"));
            PostgresCommands.run(List.of("mariadb-install-db", "--no-defaults", "--datadir=" + server.data(),
                    "--auth-root-authentication-method=normal", "--skip-test-db", "--user=" + user()));
            server.launch();
            server.sql("CREATE DATABASE " + DATABASE + "; CREATE USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY '"
                    + PASSWORD + "'; GRANT ALL ON " + DATABASE + ".* TO '" + USER + "'@'127.0.0.1';");
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not prepare a MariaDB data directory", e);
        }
    }

    /**
     * @return the JDBC URL of {@link #DATABASE}, {@code jdbc:mariadb://127.0.0.1:<port>/locks}
     */
    public String jdbcUrl() {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + DATABASE;
    }

    /**
     * Runs SQL as root over the unix socket, in {@link #DATABASE} once it exists.
     *
     * @param sql one or more statements
     * @return what the {@code mariadb} client printed: tab-separated, without column names
     * @throws IllegalStateException if a statement failed
     */
    public String sql(String sql) {
        return PostgresCommands.run(List.of("mariadb", "--no-defaults", "--socket=" + directory.resolve("sock"),
                "-u", "root", "-N", "-B", "-e", sql)).strip();
    }

    /**
     * Stops the server ({@code SIGTERM}, a normal shutdown: its sessions are ended, as a server going down would end
     * them) and waits for it to end; its data stay, so {@link #restart()} brings it back. Idempotent.
     */
    public void stop() {
        stopProcess(directory);
    }

    /**
     * Starts the server again on its port and data directory, after {@link #stop()}.
     *
     * @throws IllegalStateException if it could not be started
     */
    public void restart() {
        try {
            launch();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the MariaDB server in " + directory + " again", e);
        }
    }

    /**
     * Stops the server by its process id and deletes its directory. Idempotent.
     */
    @Override
    public void close() {
        if (Files.exists(directory)) {
            stopProcess(directory);
            ServerDirectories.delete(directory);
        }
    }

    private void launch() throws IOException {
        // mariadbd runs as root only when told to, as the tests may run as root
        Process process = new ProcessBuilder("mariadbd", "--no-defaults", "--user=" + user(), "--datadir=" + data(),
                "--socket=" + directory.resolve("sock"), "--port=" + port, "--bind-address=127.0.0.1",
                "--pid-file=" + directory.resolve("mariadb.pid"), "--log-error=" + directory.resolve("server.log"),
                "--skip-name-resolve", "--skip-log-bin", "--innodb-buffer-pool-size=64M",
                "--innodb-flush-log-at-trx-commit=0", "--max-connections=300")
                .redirectErrorStream(true).redirectOutput(directory.resolve("stdout.log").toFile()).start();
        Files.writeString(directory.resolve("server.pid"), Long.toString(process.pid()));
        long deadline = System.nanoTime() + STARTUP.toNanos();
        while (!accepts()) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new IllegalStateException("mariadbd did not start on port " + port + "\nserver log:\n" + log());
            }
            Pause.sleep(100);
        }
    }

    private boolean accepts() {
        if (!Files.exists(directory.resolve("sock"))) {
            return false;
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String user() {
        return System.getProperty("user.name");
    }

    /** Ends the server whose process id the directory keeps, and waits for it to end. */
    private static void stopProcess(Path directory) {
        try {
            long pid = Long.parseLong(Files.readString(directory.resolve("server.pid")).strip());
            ProcessHandle.of(pid).ifPresent(server -> {
                server.destroy();
                try {
                    server.onExit().get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    server.destroyForcibly();
                }
            });
        } catch (IOException | NumberFormatException e) {
            // never started
        }
    }
}
