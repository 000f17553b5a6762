package io.quarkiverse.lock.deployment.locked.invalid;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Builds an application whose one bean misuses {@code @Locked}, and checks that the build fails with a message
 * naming the method and the problem.
 */
final class InvalidLockedMethod {

    private InvalidLockedMethod() {
    }

    static QuarkusUnitTest failingBuild(Class<?> bean, String... expectedWords) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClass(bean))
                .overrideConfigKey("quarkus.devservices.enabled", "false")
                .overrideConfigKey("quarkus.lock.provider", "in-memory")
                .assertException(failure -> StartupFailure.assertMentions(failure, expectedWords));
    }
}
