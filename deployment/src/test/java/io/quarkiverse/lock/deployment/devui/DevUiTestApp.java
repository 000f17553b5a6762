package io.quarkiverse.lock.deployment.devui;

import org.jboss.shrinkwrap.api.asset.StringAsset;

import io.quarkus.test.QuarkusDevModeTest;

/**
 * The dev-mode application of the Dev UI browser tests (the core's and each store's): {@link DevUiLockActivity} on a
 * given HTTP port, with Dev Services off and a ten-minute lease.
 */
public final class DevUiTestApp {

    private DevUiTestApp() {
    }

    /**
     * @param port the HTTP port, where the test's browser reads the Dev UI
     * @param storeConfig the store's lines of {@code application.properties}, each ending with a line break
     * @return the application
     */
    public static QuarkusDevModeTest on(int port, String storeConfig) {
        return on(port, storeConfig, new Class<?>[0]);
    }

    /**
     * @param port the HTTP port, where the test's browser reads the Dev UI
     * @param storeConfig the store's lines of {@code application.properties}, each ending with a line break
     * @param classes more classes of the application, such as a resource the test calls
     * @return the application
     */
    public static QuarkusDevModeTest on(int port, String storeConfig, Class<?>... classes) {
        return new QuarkusDevModeTest()
                .withApplicationRoot(root -> root.addClass(DevUiLockActivity.class).addClasses(classes)
                        .addAsResource(new StringAsset("quarkus.http.port=" + port + "\n"
                                + "quarkus.devservices.enabled=false\n"
                                + storeConfig
                                + "quarkus.lock.expire-after=10m\n"), "application.properties"));
    }
}
