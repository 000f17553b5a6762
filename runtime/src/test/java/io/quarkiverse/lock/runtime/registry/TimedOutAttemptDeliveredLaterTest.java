package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;

/**
 * Review of 6be2f57: the take-back of an acquisition waits for its attempt's answer, but the operation timeout of
 * {@code TimeBoundedLockStore} counts as an answer. The timeout cancels the attempt, which is exactly what a store
 * client that "delivers a command after its caller cancelled it" (the commit's premise: a driver's retried write, a
 * command already on the wire) does not honour. The take-back then goes at once, the store runs it first, and the
 * late attempt grants a lock nobody holds, for its whole lease.
 * <p>
 * Same store model as {@link AttemptDeliveredAfterCancelTest} ({@link LateDeliveringStore}), only networked
 * ({@code answersAtOnce() == false}, so
 * the registry bounds it with the operation timeout) and slower than that timeout.
 */
class TimedOutAttemptDeliveredLaterTest {

    private static final long OPERATION_TIMEOUT_MILLIS = 200;
    private static final long DELIVERY_DELAY_MILLIS = 500;

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory()
            .withOperationTimeout(Duration.ofMillis(OPERATION_TIMEOUT_MILLIS))
            .decorating((vertx, store) -> new LateDeliveringStore(store, vertx, DELIVERY_DELAY_MILLIS, true));

    @Test
    void aTimedOutAttemptDeliveredAfterItsTakeBackLeavesAGhost() throws Exception {
        String key = "timed-out-delivered-later-" + UUID.randomUUID();
        ReactiveDistributedLock holder = locks.registry().obtain(key);
        assertThat(holder.acquireOnce().await().atMost(Duration.ofSeconds(5))).isTrue();

        AtomicReference<Object> outcome = new AtomicReference<>();
        locks.registry().obtain(key).acquire(Duration.ofSeconds(5), Duration.ofSeconds(30)).subscribe()
                .with(outcome::set, outcome::set);
        Thread.sleep(OPERATION_TIMEOUT_MILLIS + 100);
        assertThat(holder.release().await().atMost(Duration.ofSeconds(5))).isTrue();
        Thread.sleep(DELIVERY_DELAY_MILLIS + 200);

        boolean free = locks.registry().obtain(key).acquireOnce().await().atMost(Duration.ofSeconds(5));
        assertThat(free).as("the lock is free once the timed-out acquisition's late attempt was taken back").isTrue();
    }
}
