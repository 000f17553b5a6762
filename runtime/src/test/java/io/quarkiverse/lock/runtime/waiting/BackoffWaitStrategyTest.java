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
    void whileEveryReleaseIsAnnouncedTheFirstWaiterPollsOnlyAsAFallback() {
        LocalLockStates states = new LocalLockStates();
        Waiter first = states.join("k", "first", token -> {
        });
        Waiter second = states.join("k", "second", token -> {
        });
        BackoffWaitStrategy strategy = new BackoffWaitStrategy(null);

        assertThat(strategy.delayMillis(first, 1, UNKNOWN, LONG_WAIT)).as("not announced: backing off").isBetween(1L, 2L);
        states.announcesEveryRelease(true);
        assertThat(strategy.delayMillis(first, 1, UNKNOWN, LONG_WAIT)).as("announced")
                .isBetween(BackoffWaitStrategy.ANNOUNCED_MILLIS / 2, BackoffWaitStrategy.ANNOUNCED_MILLIS);
        assertThat(strategy.delayMillis(first, 100, 30, LONG_WAIT)).as("announced, within the holder's lease")
                .isLessThanOrEqualTo(31);
        assertThat(strategy.delayMillis(first, 100, UNKNOWN, 20_000_000L)).as("announced, within the caller's wait")
                .isLessThanOrEqualTo(20);
        assertThat(strategy.delayMillis(second, 100, UNKNOWN, LONG_WAIT)).as("not first: until its wait ends")
                .isEqualTo(LONG_WAIT / 1_000_000);
        assertThat(new BackoffWaitStrategy(null, 2, 4).delayMillis(first, 100, UNKNOWN, LONG_WAIT))
                .as("a strategy that backs off the same way either way").isBetween(2L, 4L);
        states.announcesEveryRelease(false);
        assertThat(strategy.delayMillis(first, 1, UNKNOWN, LONG_WAIT)).as("no longer announced").isBetween(1L, 2L);
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
