package io.quarkiverse.lock.deployment.mongodb;

import io.quarkiverse.lock.testsupport.MongoTestServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A test application whose default MongoDB client connects to a test server, with Dev Services off and the in-memory
 * server's log quiet. Its root holds this class, which the test class loads in the application's class loader, and
 * {@link MongoInstances}, which a test may inject.
 */
final class MongoTestApp {

    private MongoTestApp() {
    }

    /**
     * @param connectionString the default client's, such as {@link MongoTestServer#sharedConnectionString()} or
     *        {@link MongoTestServer#ownedBy} for a test that breaks its server
     * @return the application, to which the test adds its own configuration
     */
    static QuarkusUnitTest on(String connectionString) {
        return new QuarkusUnitTest()
                .withApplicationRoot(root -> root.addClasses(MongoTestApp.class, MongoInstances.class))
                .overrideConfigKey("quarkus.devservices.enabled", "false")
                .overrideConfigKey("quarkus.mongodb.connection-string", connectionString)
                .overrideConfigKey("quarkus.log.category.\"de.bwaldvogel\".level", "OFF");
    }

    /** @return the application, on the server the test classes share */
    static QuarkusUnitTest shared() {
        return on(MongoTestServer.sharedConnectionString());
    }
}
