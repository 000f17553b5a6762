package io.quarkiverse.lock.testsupport;

import java.util.Map;

import de.bwaldvogel.mongo.MongoServer;
import io.quarkiverse.lock.testsupport.mongo.MongoFaults;
import io.quarkiverse.lock.testsupport.mongo.MongoTopology;
import io.quarkiverse.lock.testsupport.mongo.StrictMongoBackend;

/**
 * An in-process MongoDB wire-protocol server ({@code mongo-java-server}, memory backend, with the oplog that change
 * streams need) behind a strict front ({@link StrictMongoBackend}) that refuses what a real MongoDB server refuses,
 * on a loopback port, for tests that reach it through the real Quarkus MongoDB client.
 * <p>
 * {@link #sharedConnectionString()} starts one server per JVM; {@link #ownedBy(Class)} one per test class that stops
 * and restarts its server. Both play a replica set of one member unless told otherwise. Every copy of this class
 * that Quarkus test class loaders make finds them again: the port, a way to stop the server, its deployment and its
 * fault state are kept in the system properties, which all copies share, as JDK types.
 */
public final class MongoTestServer {

    private MongoTestServer() {
    }

    /**
     * @return the connection string of the server shared by every test of this JVM (a replica set of one member),
     *         started on first use and stopped when the JVM exits
     */
    public static String sharedConnectionString() {
        return ownedBy(MongoTestServer.class);
    }

    /**
     * @param testClass the test class the server belongs to
     * @return the connection string of that class's server (a replica set of one member), started on first use and
     *         stopped when the JVM exits
     */
    public static String ownedBy(Class<?> testClass) {
        return ownedBy(testClass, MongoTopology.REPLICA_SET);
    }

    /**
     * @param testClass the test class the server belongs to
     * @param topology the deployment the server plays, when this call starts it
     * @return the connection string of that class's server, started on first use and stopped when the JVM exits
     */
    public static synchronized String ownedBy(Class<?> testClass, MongoTopology topology) {
        String port = System.getProperty(portProperty(testClass));
        if (port == null) {
            System.setProperty(topologyProperty(testClass), topology.name());
            System.getProperties().put(faultsProperty(testClass), StrictMongoBackend.newFaultState());
            port = Integer.toString(start(testClass, 0));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> stopOwnedBy(testClass)));
        }
        return "mongodb://127.0.0.1:" + port;
    }

    /**
     * @return the faults of the shared server
     */
    public static MongoFaults sharedFaults() {
        return faultsOf(MongoTestServer.class);
    }

    /**
     * @param testClass the test class the server belongs to, started before
     * @return the faults of that class's server
     */
    @SuppressWarnings("unchecked")
    public static MongoFaults faultsOf(Class<?> testClass) {
        Object state = System.getProperties().get(faultsProperty(testClass));
        if (state == null) {
            throw new IllegalStateException("No MongoDB test server of " + testClass.getName() + " was started");
        }
        return MongoFaults.of((Map<String, Object>) state);
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
     * Starts a new, empty server on the port of a test class's stopped server, as a restarted server would be, with
     * the same deployment and faults.
     *
     * @param testClass the test class the server belongs to
     */
    public static synchronized void restartOwnedBy(Class<?> testClass) {
        stopOwnedBy(testClass);
        start(testClass, Integer.parseInt(System.getProperty(portProperty(testClass))));
    }

    @SuppressWarnings("unchecked")
    private static int start(Class<?> testClass, int port) {
        MongoTopology topology = MongoTopology.valueOf(System.getProperty(topologyProperty(testClass)));
        Map<String, Object> faults = (Map<String, Object>) System.getProperties().get(faultsProperty(testClass));
        MongoServer server = new MongoServer(new StrictMongoBackend(topology, faults));
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

    private static String topologyProperty(Class<?> testClass) {
        return testClass.getName() + ".mongo-topology";
    }

    private static String faultsProperty(Class<?> testClass) {
        return testClass.getName() + ".mongo-faults";
    }
}
