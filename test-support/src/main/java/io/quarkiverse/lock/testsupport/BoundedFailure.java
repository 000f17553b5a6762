package io.quarkiverse.lock.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;

import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/**
 * What the outage tests check of an operation on a store that is down or hung: it fails, with the expected exception,
 * and within a bound instead of hanging.
 */
public final class BoundedFailure {

    private BoundedFailure() {
    }

    /**
     * Asserts that {@code call} throws {@code type}, with a message containing each of {@code messageParts}, in less
     * than {@code bound}.
     *
     * @param bound how long the failure may take
     * @param type the exception expected
     * @param call the operation, which waits for its outcome
     * @param messageParts what the exception's message names, such as the lock's key
     * @return the exception, for the test's further checks
     */
    public static Throwable assertFailsWithin(Duration bound, Class<? extends Throwable> type, ThrowingCallable call,
            String... messageParts) {
        long start = System.nanoTime();
        Throwable failure = catchThrowable(call);
        AbstractThrowableAssert<?, ? extends Throwable> failed = assertThat(failure).isInstanceOf(type);
        for (String part : messageParts) {
            failed.hasMessageContaining(part);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(bound);
        return failure;
    }
}
