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
                .assertException(failure -> assertMentions(failure, property));
    }

    /**
     * Checks that a startup failure, or one of its causes, mentions each of the given words.
     */
    static void assertMentions(Throwable failure, String... words) {
        assertThat(messages(failure)).contains(words);
    }

    private static String messages(Throwable failure) {
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
        }
        return messages.toString();
    }
}
