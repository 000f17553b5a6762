package io.quarkiverse.lock.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * A database server of the tests' own: a process on a free loopback port, with its files (data, socket, log) in a
 * temporary directory of its own ({@link ServerDirectories}).
 */
public abstract sealed class LocalServer implements AutoCloseable permits MariaDbServer, PostgresServer {

    /** The port the server listens on, on 127.0.0.1. */
    final int port;
    /** The server's directory. */
    final Path directory;

    LocalServer(int port, Path directory) {
        this.port = port;
        this.directory = directory;
    }

    /**
     * The server this JVM published under {@code name}, started and published on first use: its port and directory
     * are system properties, so that the copies of the server classes that Quarkus test class loaders make find it
     * again.
     *
     * @param name what the properties' names begin with
     * @param found the server of a published port and directory
     * @param start starts a new server
     * @return the server
     */
    static <S extends LocalServer> S published(String name, BiFunction<Integer, Path, S> found, Supplier<S> start) {
        synchronized (System.class) {
            Integer port = Integer.getInteger(name + "-port");
            if (port != null) {
                return found.apply(port, Paths.get(System.getProperty(name + "-dir")));
            }
            S server = start.get();
            System.setProperty(name + "-port", Integer.toString(server.port));
            System.setProperty(name + "-dir", server.directory.toString());
            return server;
        }
    }

    /**
     * @return the port the server listens on, on 127.0.0.1
     */
    public int port() {
        return port;
    }

    /**
     * @return the server's log so far, or why there is none
     */
    public String log() {
        try {
            return Files.readString(directory.resolve("server.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /**
     * Stops the server and deletes its directory. Idempotent.
     */
    @Override
    public abstract void close();

    /** @return the server's data directory, in its directory */
    Path data() {
        return directory.resolve("data");
    }
}
