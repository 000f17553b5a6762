package io.quarkiverse.lock.testsupport;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import com.mongodb.ConnectionString;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;

import io.quarkiverse.lock.testsupport.proxy.FaultProxy;
import io.quarkiverse.lock.testsupport.proxy.WireProtocol;

/**
 * The {@link MongoTestServer} of one test class that puts a {@link FaultProxy} between a client and the server: started
 * before the class's tests, with a client straight to it (which no fault reaches), and stopped after them. Registered
 * as {@code @RegisterExtension static final OwnedMongoServer SERVER = new OwnedMongoServer(MyTest.class);}.
 */
public final class OwnedMongoServer implements BeforeAllCallback, AfterAllCallback {

    private final Class<?> owner;
    private int port;
    private MongoClient direct;

    /**
     * @param owner the test class, which owns the server
     */
    public OwnedMongoServer(Class<?> owner) {
        this.owner = owner;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        String connection = MongoTestServer.ownedBy(owner);
        String host = new ConnectionString(connection).getHosts().get(0);
        port = Integer.parseInt(host.substring(host.lastIndexOf(':') + 1));
        direct = MongoClients.create(connection);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            direct.close();
        } finally {
            MongoTestServer.stopOwnedBy(owner);
        }
    }

    /** @return the server's port on 127.0.0.1 */
    public int port() {
        return port;
    }

    /** @return a client straight to the server, for the test's own reads and checks; closed after the tests */
    public MongoClient direct() {
        return direct;
    }

    /** @return a new proxy in front of the server, with no rules yet; the test closes it */
    public FaultProxy startProxy() {
        return FaultProxy.start("127.0.0.1", port, WireProtocol.MONGODB);
    }
}
