package io.quarkiverse.lock.test;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;

/**
 * An in-process MongoDB wire-protocol server ({@code mongo-java-server}, memory backend) on a free loopback port, for
 * tests that reach it through the real Quarkus MongoDB client. {@link #shared()} starts one server per JVM; it is
 * found again by the copies of this class that Quarkus test class loaders make.
 */
public final class MongoTestServer {

    private static final String PORT_PROPERTY = MongoTestServer.class.getName() + ".port";
    private static MongoServer server;

    private MongoTestServer() {
    }

    /**
     * @return the connection string of the server shared by every test of this JVM, started on first use and stopped
     *         when the JVM exits
     */
    public static synchronized String sharedConnectionString() {
        String port = System.getProperty(PORT_PROPERTY);
        if (port == null) {
            MemoryBackend backend = new MemoryBackend();
            backend.enableOplog();
            server = new MongoServer(backend);
            server.bind("127.0.0.1", 0);
            port = Integer.toString(server.getLocalAddress().getPort());
            System.setProperty(PORT_PROPERTY, port);
            MongoServer started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(started::shutdownNow));
        }
        return "mongodb://127.0.0.1:" + port;
    }
}
