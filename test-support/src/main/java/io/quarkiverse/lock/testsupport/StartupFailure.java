package io.quarkiverse.lock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks what a failed build or startup said: the failure, its causes, and what they suppressed.
 */
public final class StartupFailure {

    private StartupFailure() {
    }

    /**
     * @param failure the failure of the build or startup
     * @param words what its messages must mention, each somewhere
     */
    public static void assertMentions(Throwable failure, String... words) {
        StringBuilder messages = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
            for (Throwable suppressed : t.getSuppressed()) {
                messages.append(suppressed.getMessage()).append('\n');
            }
        }
        assertThat(messages.toString()).contains(words);
    }
}
