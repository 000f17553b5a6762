package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;

/**
 * The blocking view's {@code acquireAndExecute} ends with {@code release()}, which frees
 * whatever hold the handle has at that moment, not the acquisition the section made. The reactive
 * {@code acquireAndExecute} gives back only its own acquisition ({@code ClaimedAcquisition}); the blocking one does not.
 * <p>
 * Interleaving: section 1 acquires (lease 300 ms) and runs 900 ms; its lease runs out at 300 ms; at 400 ms section 2 on
 * the same handle acquires afresh (lease 10 s, a valid hold); at 900 ms section 1 ends and its {@code release()} frees
 * section 2's hold; at 1000 ms another handle acquires while section 2 still runs. The guide: "only the acquisition
 * that holds the lock can release it", "a holder that runs past its lease loses the lock and learns it at release":
 * section 1 fails with {@code LockExpiredException}, and section 2 keeps the lock.
 */
class BlockingSectionReleaseTest {

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory();

    @Test
    void aBlockingSectionThatRanPastItsLeaseDoesNotFreeTheNextSectionsHold() throws Exception {
        String key = "blocking-" + UUID.randomUUID();
        assertSecondSectionKeepsItsLock(key, LockType.SINGLE_ENTRANT);
    }

    @Test
    void aBlockingOverridingSectionDoesNotFreeTheHoldOfTheNextOverridingSection() throws Exception {
        String key = "blocking-overriding-" + UUID.randomUUID();
        assertSecondSectionKeepsItsLock(key, LockType.OVERRIDING);
    }

    private void assertSecondSectionKeepsItsLock(String key, LockType type) throws Exception {
        DistributedLock shared = locks.registry().obtain(key, type).toBlocking();
        CountDownLatch secondIn = new CountDownLatch(1);
        CountDownLatch checked = new CountDownLatch(1);
        CompletableFuture<Void> first = async(() -> shared.acquireAndExecute(Duration.ZERO,
                Duration.ofMillis(300), () -> {
                    Thread.sleep(900);
                    return null;
                }));
        Thread.sleep(400);
        CompletableFuture<Void> second = async(() -> shared.acquireAndExecute(Duration.ZERO,
                Duration.ofSeconds(10), () -> {
                    secondIn.countDown();
                    checked.await(10, TimeUnit.SECONDS);
                    return null;
                }));
        assertThat(secondIn.await(5, TimeUnit.SECONDS)).as("section 2 got the lock after section 1's lease").isTrue();
        assertThatThrownBy(() -> first.get(5, TimeUnit.SECONDS))
                .as("section 1 ran past its lease and learns it at its release")
                .hasCauseInstanceOf(LockExpiredException.class);
        ReactiveDistributedLock other = locks.registry().obtain(key);
        boolean otherGotIt = other.acquireOnce().await().atMost(Duration.ofSeconds(5));
        checked.countDown();
        second.get(5, TimeUnit.SECONDS);
        assertThat(otherGotIt).as("two holders: section 2 (valid lease) and another handle").isFalse();
    }

    interface Body {
        void run() throws Exception;
    }

    private static CompletableFuture<Void> async(Body body) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                body.run();
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
        thread.start();
        return done;
    }
}
