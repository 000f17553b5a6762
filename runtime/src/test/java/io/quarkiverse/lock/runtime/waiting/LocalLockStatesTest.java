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

    @Test
    void theLastWaiterToLeaveDropsTheState() {
        Waiter first = states.join("k", "a", t -> {
        });
        Waiter second = states.join("k", "b", t -> {
        });

        states.leave(first);
        assertThat(states.get("k")).isNotNull();
        assertThat(states.get("k").waiting()).isEqualTo(1);

        states.leave(second);
        assertThat(states.get("k")).isNull();
    }

    @Test
    void waitedOnStateIsNeverEvicted() {
        states.join("k", "w", t -> {
        });

        assertThat(states.evictIdle(System.nanoTime() + 30 * IDLE, IDLE)).isZero();
        assertThat(states.get("k").waiting()).isEqualTo(1);
    }

    @Test
    void anEmptyStateLeftBehindIsEvictedOnceIdleLongEnough() {
        Waiter waiter = states.join("k", "w", t -> {
        });
        waiter.leave(System.nanoTime());
        long now = System.nanoTime();

        assertThat(states.evictIdle(now, IDLE)).isZero();
        assertThat(states.evictIdle(now + IDLE, IDLE)).isEqualTo(1);
        assertThat(states.get("k")).isNull();
    }

    @Test
    void aNewWaiterAfterEvictionGetsAFreshStateThatIsInUse() {
        states.join("k", "w", t -> {
        }).leave(System.nanoTime());
        states.evictIdle(System.nanoTime() + IDLE, IDLE);

        Waiter waiter = states.join("k", "w", t -> {
        });

        assertThat(waiter.isHead()).isTrue();
        assertThat(states.get("k").waiting()).isEqualTo(1);
        assertThat(states.evictIdle(System.nanoTime() + 30 * IDLE, IDLE)).isZero();
    }

    @Test
    void waitersQueueInArrivalOrderAndOnlyTheFirstIsHead() {
        Waiter first = states.join("k", "a", t -> {
        });
        Waiter second = states.join("k", "b", t -> {
        });
        Waiter third = states.join("k", "c", t -> {
        });

        assertThat(first.isHead()).isTrue();
        assertThat(second.isHead()).isFalse();
        assertThat(third.isHead()).isFalse();

        states.leave(second);
        states.leave(first);
        assertThat(third.isHead()).isTrue();
    }

    @Test
    void aLocalReleaseWakesTheHeadOnly() {
        Waiter head = states.join("k", "h", t -> {
        });
        Waiter next = states.join("k", "n", t -> {
        });
        AtomicInteger headWoken = new AtomicInteger();
        AtomicInteger nextWoken = new AtomicInteger();
        head.park(new Wakeup(headWoken::incrementAndGet));
        next.park(new Wakeup(nextWoken::incrementAndGet));

        states.released("k");

        assertThat(headWoken.get()).isEqualTo(1);
        assertThat(nextWoken.get()).isZero();
    }

    @Test
    void whenTheHeadLeavesTheNextWaiterIsWokenAsTheNewHead() {
        Waiter head = states.join("k", "h", t -> {
        });
        Waiter next = states.join("k", "n", t -> {
        });
        AtomicInteger nextWoken = new AtomicInteger();
        next.park(new Wakeup(nextWoken::incrementAndGet));

        states.leave(head);

        assertThat(nextWoken.get()).isEqualTo(1);
        assertThat(next.isHead()).isTrue();
    }

    @Test
    void aWakeUpThatComesWhileTheWaiterIsNotPausedEndsItsNextPauseAtOnce() {
        Waiter head = states.join("k", "h", t -> {
        });
        states.released("k");
        AtomicInteger woken = new AtomicInteger();

        head.park(new Wakeup(woken::incrementAndGet));
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
