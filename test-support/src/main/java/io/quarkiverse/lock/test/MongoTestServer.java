package io.quarkiverse.lock.test;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * An in-process MongoDB wire-protocol server ({@code mongo-java-server}, memory backend, with the oplog that change
 * streams need) on a loopback port, for tests that reach it through the real Quarkus MongoDB client.
 * <p>
 * {@link #sharedConnectionString()} starts one server per JVM; {@link #ownedBy(Class)} one per test class that stops
 * and restarts its server. Both are found again by the copies of this class that Quarkus test class loaders make:
 * the port, and a way to stop the server, are kept in the system properties, which all copies share.
 */
public final class MongoTestServer {

    private MongoTestServer() {
    }

    /**
     * @return the connection string of the server shared by every test of this JVM, started on first use and stopped
     *         when the JVM exits
     */
    public static String sharedConnectionString() {
        return ownedBy(MongoTestServer.class);
    }

    /**
     * @param testClass the test class the server belongs to
     * @return the connection string of that class's server, started on first use and stopped when the JVM exits
     */
    public static synchronized String ownedBy(Class<?> testClass) {
        String port = System.getProperty(portProperty(testClass));
        if (port == null) {
            port = Integer.toString(start(testClass, 0));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stopOwnedBy(testClass)));
        }
        return "mongodb://127.0.0.1:" + port;
    }

    /**
     * Stops the server of a test class: its port refuses connections until {@link #restartOwnedBy(Class)}.
     *
     * @param testClass the test class the server belongs to
     */
    public static synchronized void stopOwnedBy(Class<?> testClass) {
        Object stop = System.getProperties().remove(stopProperty(testClass));
        if (stop instanceof Runnable running) {
            running.run();
        }
    }

    /**
     * Starts a new, empty server on the port of a test class's stopped server, as a restarted server would be.
     *
     * @param testClass the test class the server belongs to
     */
    public static synchronized void restartOwnedBy(Class<?> testClass) {
        stopOwnedBy(testClass);
        start(testClass, Integer.parseInt(System.getProperty(portProperty(testClass))));
    }

    private static int start(Class<?> testClass, int port) {
        MemoryBackend backend = new MemoryBackend();
        backend.enableOplog();
        MongoServer server = new MongoServer(backend);
        server.bind("127.0.0.1", port);
        int bound = server.getLocalAddress().getPort();
        System.setProperty(portProperty(testClass), Integer.toString(bound));
        System.getProperties().put(stopProperty(testClass), (Runnable) server::shutdownNow);
        return bound;
    }

    private static String portProperty(Class<?> testClass) {
        return testClass.getName() + ".mongo-port";
    }

    private static String stopProperty(Class<?> testClass) {
        return testClass.getName() + ".mongo-stop";
    }
}
