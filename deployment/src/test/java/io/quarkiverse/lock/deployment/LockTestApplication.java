package io.quarkiverse.lock.deployment;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The application a test of this module builds: its classes (and this one, which the test class loads in the
 * application's class loader), with Dev Services off (no store runs in a container here), on the in-memory store
 * unless the test is about how the store is chosen.
 */
public final class LockTestApplication {

    private LockTestApplication() {
    }

    /** An application of these classes on the in-memory store. */
    public static QuarkusUnitTest inMemory(Class<?>... classes) {
        return withoutDevServices(classes).overrideConfigKey("quarkus.lock.provider", "in-memory");
    }

    /** An application of these classes whose store the extension chooses. */
    public static QuarkusUnitTest withoutDevServices(Class<?>... classes) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClasses(classes).addClass(LockTestApplication.class))
                .overrideConfigKey("quarkus.devservices.enabled", "false");
    }
}
