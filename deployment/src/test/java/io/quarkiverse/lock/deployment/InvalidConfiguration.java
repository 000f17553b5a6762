package io.quarkiverse.lock.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusUnitTest;

/**
 * Builds an application whose startup must fail because of one invalid property, and checks that the failure names
 * that property.
 */
final class InvalidConfiguration {

    private InvalidConfiguration() {
    }

    static QuarkusUnitTest failingWith(String property, String value) {
        return new QuarkusUnitTest()
                .withEmptyApplication()
                .overrideConfigKey("quarkus.devservices.enabled", "false")
                .overrideConfigKey("quarkus.lock.provider", "in-memory")
                .overrideConfigKey(property, value)
                .assertException(failure -> assertThat(messages(failure)).contains(property));
    }

    private static String messages(Throwable failure) {
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        return messages.toString();
    }
}
