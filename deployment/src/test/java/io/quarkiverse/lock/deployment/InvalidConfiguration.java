package io.quarkiverse.lock.deployment;

import io.quarkiverse.lock.testsupport.StartupFailure;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Builds an application whose startup must fail because of one invalid property, and checks that the failure names
 * that property.
 */
final class InvalidConfiguration {

    private InvalidConfiguration() {
    }

    static QuarkusUnitTest failingWith(String property, String value) {
        return LockTestApplication.inMemory()
                .overrideConfigKey(property, value)
                .assertException(failure -> StartupFailure.assertMentions(failure, property));
    }
}
