package io.quarkiverse.lock.deployment.redis;

import io.quarkiverse.lock.testsupport.RedisServer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A test application whose default Redis client connects to a test server, with Dev Services off. Its root holds this
 * class and the helper classes the test names, since the test class is loaded in the application's class loader.
 */
final class RedisTestApp {

    private RedisTestApp() {
    }

    /**
     * @param hosts the default client's hosts, such as {@link RedisServer#uri()}
     * @param helpers classes of the test's own that the application must see, such as {@link RedisAclUser}
     * @return the application, to which the test adds its own configuration
     */
    static QuarkusUnitTest on(String hosts, Class<?>... helpers) {
        return new QuarkusUnitTest()
                .withApplicationRoot(root -> root.addClass(RedisTestApp.class).addClasses(helpers))
                .overrideConfigKey("quarkus.devservices.enabled", "false")
                .overrideConfigKey("quarkus.redis.hosts", hosts);
    }

    /** @return the application, on the server the test classes share */
    static QuarkusUnitTest shared() {
        return on(RedisServer.shared().uri());
    }

    /**
     * @param testClass the test class, which owns the server because it breaks, stops or configures it
     * @param settings the server's extra settings (see {@link RedisServer#startWith(String...)})
     * @return the application, on the test class's own server
     */
    static QuarkusUnitTest ownedBy(Class<?> testClass, String... settings) {
        return on(RedisServer.ownedBy(testClass, settings).uri());
    }
}
