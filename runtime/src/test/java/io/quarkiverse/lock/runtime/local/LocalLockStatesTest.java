package io.quarkiverse.lock.runtime.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * The evictor drops only state nobody uses: never held or waited-on state.
 */
class LocalLockStatesTest {

    private static final long IDLE = 1_000_000_000L;

    private final LocalLockStates states = new LocalLockStates();

    @Test
    void idleStateIsEvictedOnceItHasBeenIdleLongEnough() {
        states.onAcquired("k", 60_000);
        states.onReleased("k");
        long now = System.nanoTime();

        assertThat(states.evictIdle(now, IDLE)).isZero();
        assertThat(states.get("k")).isNotNull();

        assertThat(states.evictIdle(now + IDLE, IDLE)).isEqualTo(1);
        assertThat(states.get("k")).isNull();
    }

    @Test
    void heldStateIsNeverEvictedWhileItsLeaseRuns() {
        states.onAcquired("k", 60_000);
        long now = System.nanoTime();

        assertThat(states.evictIdle(now + 30 * IDLE, IDLE)).isZero();
        assertThat(states.get("k").holders()).isEqualTo(1);
    }

    @Test
    void aHoldNobodyReleasedStopsCountingOnceItsLeaseRanOut() {
        states.onAcquired("k", 1_000);
        long now = System.nanoTime();

        assertThat(states.evictIdle(now + 5 * IDLE, IDLE)).isEqualTo(1);
    }

    @Test
    void waitedOnStateIsNeverEvictedAndIsEvictableAfterTheWaitEnds() {
        KeyState state = states.enterWait("k");
        long now = System.nanoTime();

        assertThat(states.evictIdle(now + 30 * IDLE, IDLE)).isZero();
        assertThat(state.waiting()).isEqualTo(1);

        states.exitWait(state);
        assertThat(states.evictIdle(System.nanoTime() + IDLE, IDLE)).isEqualTo(1);
    }

    @Test
    void aNewWaiterAfterEvictionGetsAFreshStateThatIsInUse() {
        states.onAcquired("k", 1);
        states.onReleased("k");
        states.evictIdle(System.nanoTime() + IDLE, IDLE);

        KeyState state = states.enterWait("k");

        assertThat(states.get("k")).isSameAs(state);
        assertThat(states.evictIdle(System.nanoTime() + 30 * IDLE, IDLE)).isZero();
    }

    @Test
    void aLocalReleaseWakesTheLongestParkedWaiterFirstAndOnlyOne() {
        KeyState state = states.enterWait("k");
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        state.park(new Wakeup(first::incrementAndGet));
        state.park(new Wakeup(second::incrementAndGet));

        states.onReleased("k");
        assertThat(first.get()).isEqualTo(1);
        assertThat(second.get()).isZero();

        states.onReleased("k");
        assertThat(second.get()).isEqualTo(1);
        assertThat(state.wakeNext()).isFalse();
    }

    @Test
    void aWakeupFiresOnce() {
        AtomicInteger fired = new AtomicInteger();
        Wakeup wakeup = new Wakeup(fired::incrementAndGet);

        assertThat(wakeup.fire()).isTrue();
        assertThat(wakeup.fire()).isFalse();
        assertThat(fired.get()).isEqualTo(1);
    }
}
