package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * A store client may deliver a command after its caller cancelled it: Redis's client sends a script again with its
 * full source after {@code NOSCRIPT}, a MongoDB driver retries a write on a new connection, and a command already on
 * the wire cannot be called back. The take-back of a cancelled acquisition must then reach the store after that
 * attempt, or the attempt grants a lock that nobody holds, for its whole lease. Before the fix, a cancellation
 * cancelled the attempt in flight and sent the take-back at once: here the store ran the take-back first, then granted
 * the lock to the cancelled acquisition, and the next holder waited out its 30 s lease.
 */
class AttemptDeliveredAfterCancelTest {

    private static final long DELIVERY_DELAY_MILLIS = 300;

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory()
            .decorating((vertx, store) -> new LateDeliveringStore(store, vertx, DELIVERY_DELAY_MILLIS, false));

    @Test
    void theTakeBackOfACancelledAcquisitionReachesTheStoreAfterItsAttempt() throws Exception {
        String key = "delivered-after-cancel-" + UUID.randomUUID();
        ReactiveDistributedLock holder = locks.registry().obtain(key);
        assertThat(holder.acquireOnce().await().atMost(Duration.ofSeconds(5))).isTrue();

        Cancellable waiting = locks.registry().obtain(key).acquire(Duration.ofSeconds(5), Duration.ofSeconds(30)).subscribe()
                .with(ignored -> {
                }, ignored -> {
                });
        Thread.sleep(50);
        waiting.cancel();
        assertThat(holder.release().await().atMost(Duration.ofSeconds(5))).isTrue();
        Thread.sleep(DELIVERY_DELAY_MILLIS + 200);

        boolean free = locks.registry().obtain(key).acquireOnce().await().atMost(Duration.ofSeconds(5));
        assertThat(free).as("the lock is free once the cancelled acquisition's late attempt was taken back").isTrue();
    }
}
