package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code redis-server} process on a free loopback port, for tests.
 * <p>
 * The binary is {@code redis-server} from the {@code PATH}, or the one named by the {@code REDIS_SERVER} environment
 * variable. {@link #shared()} starts one server per JVM; {@link #ownedBy(Class)} one per test class that stops or
 * pauses its server. Both are found again by the copies of this class that Quarkus test class loaders make.
 */
public final class RedisServer implements AutoCloseable {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(20);
    private final int port;
    private final Process process;
    private final Path directory;
    private final long pid;
    /** Stops the server when the JVM exits without closing it (a main that ends in System.exit, a Ctrl-C). */
    private Thread exitHook;

    private RedisServer(int port, Process process, Path directory) {
        this(port, process, directory, process == null ? -1 : process.pid());
    }

    private RedisServer(int port, Process process, Path directory, long pid) {
        this.port = port;
        this.process = process;
        this.directory = directory;
        this.pid = pid;
    }

    /**
     * @return the server shared by every test of this JVM, started on first use and stopped when the JVM exits
     */
    public static RedisServer shared() {
        return ownedBy(RedisServer.class);
    }

    /**
     * Starts a new server and waits until it answers {@code PING}.
     *
     * @return the running server
     * @throws IllegalStateException if it could not be started
     */
    public static RedisServer start() {
        return startWith();
    }

    /**
     * Starts a new server with extra command-line settings, such as {@code --user} ACL rules (which must leave the
     * {@code default} user allowed to {@code PING}), and waits until it answers {@code PING}.
     *
     * @param settings the extra settings, as {@code redis-server} arguments
     * @return the running server
     * @throws IllegalStateException if it could not be started
     */
    public static RedisServer startWith(String... settings) {
        try {
            return start(freePort(), settings);
        } catch (IOException e) {
            throw new IllegalStateException("Could not find a free port", e);
        }
    }

    /**
     * Starts a new server on the given port, such as the port of a server that was stopped, and waits until it
     * answers {@code PING}.
     *
     * @param port the port
     * @return the running server
     * @throws IllegalStateException if it could not be started
     */
    public static RedisServer start(int port) {
        return start(port, new String[0]);
    }

    /**
     * Starts a new server on the given port with extra command-line settings, and waits until it answers
     * {@code PING}.
     *
     * @param port the port
     * @param settings the extra settings, as {@code redis-server} arguments
     * @return the running server
     * @throws IllegalStateException if it could not be started
     */
    public static RedisServer start(int port, String... settings) {
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
            RedisServer server = new RedisServer(port, process, directory);
            server.exitHook = new Thread(server::stop, "redis-server-stop");
            Runtime.getRuntime().addShutdownHook(server.exitHook);
            server.awaitReady();
            return server;
        } catch (IOException e) {
            throw new IllegalStateException("Could not start " + binary + ": install the redis-server package, "
                    + "or set REDIS_SERVER to its path", e);
        }
    }

    /**
     * @return the server process's id, or -1 if unknown
     */
    public long pid() {
        return pid;
    }

    /**
     * Makes the server hang ({@code SIGSTOP}): it keeps its connections and answers nothing until {@link #resume()}.
     *
     * @throws IllegalStateException if its process id is unknown or the signal could not be sent
     */
    public void pause() {
        ProcessSignals.send("-STOP", List.of(pid));
    }

    /**
     * Lets a server paused by {@link #pause()} go on ({@code SIGCONT}).
     *
     * @throws IllegalStateException if its process id is unknown or the signal could not be sent
     */
    public void resume() {
        ProcessSignals.send("-CONT", List.of(pid));
    }

    /**
     * A server of the test class's own, for tests that stop or pause it: started on first use, and found again (by
     * its port and pid, published as system properties) by the copies of the test class that Quarkus class loaders
     * make. Stopped when the JVM exits.
     *
     * @param testClass the test class that owns the server
     * @return the server, or a handle to it
     */
    public static RedisServer ownedBy(Class<?> testClass) {
        return ownedBy(testClass, new String[0]);
    }

    /**
     * As {@link #ownedBy(Class)}, for a server started with extra settings (see {@link #startWith(String...)}).
     *
     * @param testClass the test class that owns the server
     * @param settings the extra settings of the server, used when it is started
     * @return the server, or a handle to it
     */
    public static RedisServer ownedBy(Class<?> testClass, String... settings) {
        synchronized (System.class) {
            Integer port = Integer.getInteger(testClass.getName() + ".redis-port");
            if (port != null) {
                return new RedisServer(port, null, null, Long.getLong(testClass.getName() + ".redis-pid", -1));
            }
            RedisServer server = startWith(settings);
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "redis-server-stop"));
            publish(testClass, server);
            return server;
        }
    }

    /**
     * Starts the test class's own server again on its port, after a test stopped it.
     *
     * @param testClass the test class that owns the server
     * @return the new server
     */
    public static RedisServer restartOwnedBy(Class<?> testClass) {
        synchronized (System.class) {
            RedisServer server = start(ownedBy(testClass).port());
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "redis-server-stop"));
            publish(testClass, server);
            return server;
        }
    }

    private static void publish(Class<?> testClass, RedisServer server) {
        System.setProperty(testClass.getName() + ".redis-port", Integer.toString(server.port()));
        System.setProperty(testClass.getName() + ".redis-pid", Long.toString(server.pid()));
    }

    /**
     * @param port the port of a server started elsewhere (another class loader)
     * @return a handle that sends commands to it, without owning its process
     */
    public static RedisServer at(int port) {
        return new RedisServer(port, null, null);
    }

    /**
     * Stops the server by command, as a crash of the store would look to its clients.
     *
     * @throws IOException if the server cannot be reached
     */
    public void shutdown() throws IOException {
        try {
            send("SHUTDOWN NOSAVE");
        } catch (IOException expected) {
            // the server closes the connection without answering
        }
    }

    /**
     * @return the port the server listens on, on 127.0.0.1
     */
    public int port() {
        return port;
    }

    /**
     * @return the server's address as a Redis URI, for {@code quarkus.redis.hosts}
     */
    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /**
     * @return {@code true} while the server process runs
     */
    public boolean isRunning() {
        try {
            return "+PONG".equals(send("PING"));
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Sends one inline command and returns the first line of the reply, for checks that need no client library.
     *
     * @param command the command, such as {@code DBSIZE}
     * @return the reply's first line, such as {@code :0}
     * @throws IOException if the server cannot be reached
     */
    public String send(String command) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write((command + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && c != '\n') {
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        }
    }

    /**
     * Stops the server; does nothing on a handle to a server started by another class loader.
     */
    @Override
    public void close() {
        if (exitHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(exitHook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs or has run: it stops the server
            }
        }
        stop();
    }

    private void stop() {
        if (process == null) {
            return;
        }
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

    private void awaitReady() {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("redis-server exited with " + process.exitValue() + ": "
                        + readLog());
            }
            try {
                if ("+PONG".equals(send("PING"))) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            sleep(Duration.ofMillis(20));
        }
        close();
        throw new IllegalStateException("redis-server did not answer PING within " + STARTUP_TIMEOUT);
    }

    private String readLog() {
        try {
            return Files.readString(directory.resolve("redis.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
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
