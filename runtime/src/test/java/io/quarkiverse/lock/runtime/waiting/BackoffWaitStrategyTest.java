package io.quarkiverse.lock.runtime.waiting;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * Pauses grow with failed attempts up to a cap, with jitter, and never outlast the holder's lease or the caller's wait.
 */
class BackoffWaitStrategyTest {

    private static final long UNKNOWN = -1;
    private static final long LONG_WAIT = 60_000_000_000L;

    private static long delay(int failedAttempts, long holderRemainingMillis, long remainingNanos) {
        return BackoffWaitStrategy.delayMillis(failedAttempts, holderRemainingMillis, remainingNanos,
                BackoffWaitStrategy.MIN_MILLIS, BackoffWaitStrategy.MAX_MILLIS);
    }

    @RepeatedTest(50)
    void pausesAreJitteredBetweenHalfAndAllOfTheirCeiling() {
        assertThat(delay(1, UNKNOWN, LONG_WAIT)).isBetween(1L, 2L);
        assertThat(delay(3, UNKNOWN, LONG_WAIT)).isBetween(4L, 8L);
        assertThat(delay(100, UNKNOWN, LONG_WAIT))
                .isBetween(BackoffWaitStrategy.MAX_MILLIS / 2, BackoffWaitStrategy.MAX_MILLIS);
    }

    @Test
    void aPauseNeverOutlastsTheHoldersRemainingLease() {
        assertThat(delay(100, 3, LONG_WAIT)).isLessThanOrEqualTo(4);
        assertThat(delay(100, 0, LONG_WAIT)).isEqualTo(1);
    }

    @Test
    void aPauseNeverOutlastsTheCallersWait() {
        assertThat(delay(100, UNKNOWN, 5_000_000L)).isLessThanOrEqualTo(5);
        assertThat(delay(100, UNKNOWN, 1)).isEqualTo(1);
    }

    @RepeatedTest(20)
    void contendersDoNotAllRetryInStep() {
        long first = delay(8, UNKNOWN, LONG_WAIT);
        boolean differs = false;
        for (int i = 0; i < 50 && !differs; i++) {
            differs = delay(8, UNKNOWN, LONG_WAIT) != first;
        }
        assertThat(differs).isTrue();
    }
}
