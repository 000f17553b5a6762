package io.quarkiverse.lock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits of the tests: a sleep that turns an interruption into a failure (keeping the thread's interrupt flag), and a
 * poll until a condition holds.
 */
public final class Pause {

    private Pause() {
    }

    /**
     * Sleeps; an interruption sets the thread's flag again and fails with an {@link IllegalStateException}.
     *
     * @param millis how long
     */
    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Polls {@code condition} every 20 ms until it holds, failing with {@code description} once {@code within} has
     * passed.
     *
     * @param condition what must come to hold
     * @param within how long it may take
     * @param description the failure's message
     */
    public static void until(BooleanSupplier condition, Duration within, String description) {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(description).isLessThan(deadline);
            sleep(20);
        }
    }
}
