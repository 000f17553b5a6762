package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.subscription.UniSubscription;

/**
 * {@code AcquireOperation.subscribe} calls {@code onSubscribe(run)} before
 * {@code run.start()}. A cancel in between (a subscriber or operator that cancels in {@code onSubscribe}) runs
 * {@code finish()} while the acquisition has no waiter yet; {@code start()} then joins the local line and never leaves
 * it. That dead waiter is the key's head for good: every later waiting acquisition of the key in this JVM is not head,
 * so it does not poll and sleeps through its whole wait before its one last attempt (here 3 s for a free lock), and the
 * key's local state is never evicted.
 */
class CancelledBeforeStartTest {

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory();

    @Test
    void anAcquisitionCancelledOnSubscribeLeavesNoDeadWaiterInLine() {
        String key = "cancelled-on-subscribe-" + UUID.randomUUID();
        Subscriptions.subscribe(locks.registry().obtain(key).acquire(Duration.ofSeconds(5)), UniSubscription::cancel);
        assertThat(locks.states().get(key) == null ? 0 : locks.states().get(key).waiting())
                .as("local waiters on the key after a cancel in onSubscribe").isZero();
        assertFreeLockIsAcquiredPromptly(key);
    }

    private void assertFreeLockIsAcquiredPromptly(String key) {
        ReactiveDistributedLock next = locks.registry().obtain(key);
        long start = System.nanoTime();
        boolean acquired = next.acquire(Duration.ofSeconds(3)).await().atMost(Duration.ofSeconds(10));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(acquired).isTrue();
        assertThat(tookMillis).as("ms to acquire a free lock").isLessThan(500);
    }
}
