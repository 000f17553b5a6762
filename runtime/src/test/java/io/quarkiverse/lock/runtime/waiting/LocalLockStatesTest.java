package io.quarkiverse.lock.runtime.waiting;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

/**
 * The evictor drops only state nobody uses: never held or waited-on state.
 */
class LocalLockStatesTest {

    private static final long IDLE = 1_000_000_000L;

    private final LocalLockStates states = new LocalLockStates();

    /** Joins the line of key {@code k} as {@code owner}, ignoring any hand-over to it. */
    private Waiter join(String owner) {
        return states.join("k", owner, token -> {
        });
    }

    /** Pauses {@code waiter} until a wake-up, and returns how many times that wake-up fired. */
    private static AtomicInteger park(Waiter waiter) {
        AtomicInteger woken = new AtomicInteger();
        waiter.park(new Wakeup(woken::incrementAndGet));
        return woken;
    }

    @Test
    void theLastWaiterToLeaveDropsTheState() {
        Waiter first = join("a");
        Waiter second = join("b");

        states.leave(first);
        assertThat(states.get("k")).isNotNull();
        assertThat(states.get("k").waiting()).isEqualTo(1);

        states.leave(second);
        assertThat(states.get("k")).isNull();
    }

    @Test
    void waitedOnStateIsNeverEvicted() {
        join("w");

        assertThat(states.evictIdle(System.nanoTime() + 30 * IDLE, IDLE)).isZero();
        assertThat(states.get("k").waiting()).isEqualTo(1);
    }

    @Test
    void anEmptyStateLeftBehindIsEvictedOnceIdleLongEnough() {
        Waiter waiter = join("w");
        waiter.leave(System.nanoTime());
        long now = System.nanoTime();

        assertThat(states.evictIdle(now, IDLE)).isZero();
        assertThat(states.evictIdle(now + IDLE, IDLE)).isEqualTo(1);
        assertThat(states.get("k")).isNull();
    }

    @Test
    void aNewWaiterAfterEvictionGetsAFreshStateThatIsInUse() {
        join("w").leave(System.nanoTime());
        states.evictIdle(System.nanoTime() + IDLE, IDLE);

        Waiter waiter = join("w");

        assertThat(waiter.isHead()).isTrue();
        assertThat(states.get("k").waiting()).isEqualTo(1);
        assertThat(states.evictIdle(System.nanoTime() + 30 * IDLE, IDLE)).isZero();
    }

    @Test
    void waitersQueueInArrivalOrderAndOnlyTheFirstIsHead() {
        Waiter first = join("a");
        Waiter second = join("b");
        Waiter third = join("c");

        assertThat(first.isHead()).isTrue();
        assertThat(second.isHead()).isFalse();
        assertThat(third.isHead()).isFalse();

        states.leave(second);
        states.leave(first);
        assertThat(third.isHead()).isTrue();
    }

    @Test
    void aLocalReleaseWakesTheHeadOnly() {
        AtomicInteger headWoken = park(join("h"));
        AtomicInteger nextWoken = park(join("n"));

        states.released("k");

        assertThat(headWoken.get()).isEqualTo(1);
        assertThat(nextWoken.get()).isZero();
    }

    @Test
    void whenTheHeadLeavesTheNextWaiterIsWokenAsTheNewHead() {
        Waiter head = join("h");
        Waiter next = join("n");
        AtomicInteger nextWoken = park(next);

        states.leave(head);

        assertThat(nextWoken.get()).isEqualTo(1);
        assertThat(next.isHead()).isTrue();
    }

    @Test
    void aWakeUpThatComesWhileTheWaiterIsNotPausedEndsItsNextPauseAtOnce() {
        Waiter head = join("h");
        states.released("k");

        AtomicInteger woken = park(head);
        assertThat(woken.get()).isEqualTo(1);

        head.park(new Wakeup(woken::incrementAndGet));
        assertThat(woken.get()).as("the pending wake-up is used once").isEqualTo(1);
    }

    @Test
    void aHandOverReachesTheWaiterWithThatOwnerOnly() {
        AtomicLong first = new AtomicLong();
        AtomicLong second = new AtomicLong();
        states.join("k", "first-owner", first::set);
        states.join("k", "second-owner", second::set);

        states.handedOver("k", "second-owner", 42);
        states.handedOver("k", "nobody-here", 43);
        states.handedOver("other-key", "first-owner", 44);

        assertThat(first.get()).isZero();
        assertThat(second.get()).isEqualTo(42);
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
