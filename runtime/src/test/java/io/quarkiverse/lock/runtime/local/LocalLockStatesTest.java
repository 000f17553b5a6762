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
    void theLastWaiterToLeaveDropsTheState() {
        Waiter first = states.join("k");
        Waiter second = states.join("k");

        states.leave(first);
        assertThat(states.get("k")).isNotNull();
        assertThat(states.get("k").waiting()).isEqualTo(1);

        states.leave(second);
        assertThat(states.get("k")).isNull();
    }

    @Test
    void waitedOnStateIsNeverEvicted() {
        states.join("k");

        assertThat(states.evictIdle(System.nanoTime() + 30 * IDLE, IDLE)).isZero();
        assertThat(states.get("k").waiting()).isEqualTo(1);
    }

    @Test
    void anEmptyStateLeftBehindIsEvictedOnceIdleLongEnough() {
        Waiter waiter = states.join("k");
        waiter.leave(System.nanoTime());
        long now = System.nanoTime();

        assertThat(states.evictIdle(now, IDLE)).isZero();
        assertThat(states.evictIdle(now + IDLE, IDLE)).isEqualTo(1);
        assertThat(states.get("k")).isNull();
    }

    @Test
    void aNewWaiterAfterEvictionGetsAFreshStateThatIsInUse() {
        states.join("k").leave(System.nanoTime());
        states.evictIdle(System.nanoTime() + IDLE, IDLE);

        Waiter waiter = states.join("k");

        assertThat(waiter.isHead()).isTrue();
        assertThat(states.get("k").waiting()).isEqualTo(1);
        assertThat(states.evictIdle(System.nanoTime() + 30 * IDLE, IDLE)).isZero();
    }

    @Test
    void waitersQueueInArrivalOrderAndOnlyTheFirstIsHead() {
        Waiter first = states.join("k");
        Waiter second = states.join("k");
        Waiter third = states.join("k");

        assertThat(first.isHead()).isTrue();
        assertThat(second.isHead()).isFalse();
        assertThat(third.isHead()).isFalse();

        states.leave(second);
        states.leave(first);
        assertThat(third.isHead()).isTrue();
    }

    @Test
    void aLocalReleaseWakesTheHeadOnly() {
        Waiter head = states.join("k");
        Waiter next = states.join("k");
        AtomicInteger headWoken = new AtomicInteger();
        AtomicInteger nextWoken = new AtomicInteger();
        head.park(new Wakeup(headWoken::incrementAndGet));
        next.park(new Wakeup(nextWoken::incrementAndGet));

        states.onReleased("k");

        assertThat(headWoken.get()).isEqualTo(1);
        assertThat(nextWoken.get()).isZero();
    }

    @Test
    void whenTheHeadLeavesTheNextWaiterIsWokenAsTheNewHead() {
        Waiter head = states.join("k");
        Waiter next = states.join("k");
        AtomicInteger nextWoken = new AtomicInteger();
        next.park(new Wakeup(nextWoken::incrementAndGet));

        states.leave(head);

        assertThat(nextWoken.get()).isEqualTo(1);
        assertThat(next.isHead()).isTrue();
    }

    @Test
    void aWakeUpThatComesWhileTheWaiterIsNotPausedEndsItsNextPauseAtOnce() {
        Waiter head = states.join("k");
        states.onReleased("k");
        AtomicInteger woken = new AtomicInteger();

        head.park(new Wakeup(woken::incrementAndGet));
        assertThat(woken.get()).isEqualTo(1);

        head.park(new Wakeup(woken::incrementAndGet));
        assertThat(woken.get()).as("the pending wake-up is used once").isEqualTo(1);
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
