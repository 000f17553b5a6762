package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;

/**
 * A lease renewal that was about to be sent when the last release came, against a release that keeps the lock for
 * what remains of its minimum hold: the renewal reaches the store before the release's shorter lease, never after it
 * (which would keep the lock a full lease for a hold nobody tracks any more). The store's leases are on a clock the
 * test moves; the renewal comes on its own timer, at a third of a 3 s lease.
 */
class RenewalBeforeLastReleaseTest {

    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration HOLD_AT_LEAST = Duration.ofMillis(2400);

    private final RenewalFaults renewals = new RenewalFaults();
    private final AtomicLong nowMillis = new AtomicLong(1_000_000);

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.vertxOnly();

    @Test
    void aRenewalAboutToBeSentCannotOutlastTheLastReleasesMinimumHold() throws Exception {
        InMemoryLockStore inMemory = new InMemoryLockStore(() -> Instant.ofEpochMilli(nowMillis.get()));
        DefaultLockRegistry registry = locks.start(renewals.over(inMemory),
                RegistryFixture.settings(LEASE, Duration.ZERO, Duration.ofSeconds(5)), new LocalLockStates());
        String key = "renewal-before-last-release";
        ReactiveDistributedLock lock = registry.obtain(key).withLeaseRenewal(true).withHoldAtLeast(HOLD_AT_LEAST);
        CountDownLatch renewing = new CountDownLatch(1);
        CountDownLatch send = new CountDownLatch(1);
        renewals.blockNextUntil(renewing, send, lease -> lease == LEASE.toMillis());
        assertThat(RegistryFixture.await(lock.acquire(Duration.ZERO, LEASE))).isTrue();
        assertThat(renewing.await(5, TimeUnit.SECONDS)).as("the renewal is about to be sent").isTrue();

        CompletableFuture<Boolean> released = new CompletableFuture<>();
        Thread releasing = new Thread(() -> released.complete(lock.release().await().atMost(RegistryFixture.TIMEOUT)),
                "releasing");
        releasing.start();
        awaitForASecond(released);
        send.countDown();
        assertThat(released.get(5, TimeUnit.SECONDS)).as("released, kept for the rest of the minimum hold").isTrue();

        nowMillis.addAndGet(HOLD_AT_LEAST.toMillis());
        assertThat(RegistryFixture.await(registry.obtain(key).acquireOnce()))
                .as("past the minimum hold, before a full lease from the renewal: free").isTrue();
    }

    /** Gives the release a second to end, as it would if it did not wait for the renewal being sent. */
    private static void awaitForASecond(CompletableFuture<Boolean> released) throws Exception {
        try {
            released.get(1, TimeUnit.SECONDS);
        } catch (TimeoutException waitingForTheRenewal) {
            // the release waits for the renewal to be sent: let it go
        }
    }
}
