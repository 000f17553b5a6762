package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * A real {@code redis-server} process on a free loopback port, for tests.
 * <p>
 * The binary is {@code redis-server} from the {@code PATH}, or the one named by the {@code REDIS_SERVER} environment
 * variable. {@link #shared()} starts one server per JVM; {@link #ownedBy(Class)} one per test class that stops or
 * pauses its server. Both are found again by the copies of this class that Quarkus test class loaders make.
 */
public final class RedisServer implements AutoCloseable {

    private final int port;
    private final RedisProcess process;
    private final long pid;
    /** Stops the server when the JVM exits without closing it (a main that ends in System.exit, a Ctrl-C). */
    private Thread exitHook;

    private RedisServer(int port, RedisProcess process) {
        this(port, process, process == null ? -1 : process.pid());
    }

    private RedisServer(int port, RedisProcess process, long pid) {
        this.port = port;
        this.process = process;
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
            return start(LoopbackPorts.free(), settings);
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
        RedisServer server = new RedisServer(port, RedisProcess.launch(port, settings));
        server.exitHook = new Thread(server::stop, "redis-server-stop");
        Runtime.getRuntime().addShutdownHook(server.exitHook);
        if (!server.process.awaitReady(server::isRunning)) {
            server.close();
            throw new IllegalStateException("redis-server did not answer PING within " + RedisProcess.STARTUP_TIMEOUT);
        }
        return server;
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
                return new RedisServer(port, null, Long.getLong(testClass.getName() + ".redis-pid", -1));
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
        return new RedisServer(port, null);
    }

    /**
     * Kills the server ({@code SIGKILL}), a crash of its host as the server sees it: nothing is written on the way
     * out, so only what it persisted before survives. Returns once it no longer answers.
     *
     * @throws IllegalStateException if its process id is unknown, the signal could not be sent, or it still answers
     *         after 10 s
     */
    public void kill() {
        ProcessSignals.send("-KILL", List.of(pid));
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (isRunning()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("redis-server " + pid + " still answers 10 s after SIGKILL");
            }
            Pause.sleep(20);
        }
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
        if (process != null) {
            process.stop();
        }
    }
}
