package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * An interrupt that lands while a blocking acquisition is being granted either leaves the caller holding the lock
 * (told so by {@code true}) or leaves the lock free: never held by an acquisition the caller was told it did not
 * make.
 */
class BlockingAcquireInterruptTest {

    private static final int ROUNDS = 100;

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory();

    /**
     * Holds back every completion of a future Mutiny completes from a subscriber that has already taken the item
     * ({@code subscribeAsCompletionStage}) until the future is cancelled or 100 ms pass, and tells the test it began:
     * so an interrupt lands exactly between the grant and its delivery, where Mutiny drops a cancelled future's item.
     */
    private final CompletionGate gate = new CompletionGate();

    @BeforeEach
    void holdBackCompletions() {
        Infrastructure.setCompletableFutureWrapper(gate::wrap);
    }

    @AfterEach
    void releaseCompletions() {
        Infrastructure.setCompletableFutureWrapper(null);
    }

    @Test
    void anInterruptAtTheGrantNeverLeavesTheLockHeldByNobody() throws Exception {
        int stranded = 0;
        int acquired = 0;
        for (int round = 0; round < ROUNDS; round++) {
            String key = "interrupted-" + UUID.randomUUID();
            ReactiveDistributedLock holder = locks.registry().obtain(key);
            assertThat(RegistryFixture.await(holder.acquireOnce())).isTrue();
            DistributedLock waiter = locks.registry().obtain(key).toBlocking();
            AtomicReference<Boolean> outcome = new AtomicReference<>();
            Thread waiting = new Thread(() -> {
                try {
                    outcome.set(waiter.acquire(Duration.ofSeconds(5)));
                } catch (RuntimeException interrupted) {
                    outcome.set(Boolean.FALSE);
                }
            });
            waiting.start();
            while (waiting.getState() != Thread.State.WAITING && waiting.isAlive()) {
                Thread.onSpinWait();
            }
            holder.release().subscribe().with(released -> {
            }, failure -> {
            });
            long spinUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(round % 2 == 0 ? 50 : 0)
                    + ThreadLocalRandom.current().nextLong(200_000);
            while (System.nanoTime() < spinUntil && !gate.completing()) {
                Thread.onSpinWait();
            }
            waiting.interrupt();
            gate.reset();
            waiting.join(10_000);
            assertThat(waiting.isAlive()).as("the blocked acquisition answered after its interrupt").isFalse();
            if (Boolean.TRUE.equals(outcome.get())) {
                acquired++;
                assertThat(waiter.release()).as("round %d: the caller told it acquired holds the lock", round).isTrue();
            } else if (!freeNow(key)) {
                stranded++;
            }
        }
        assertThat(stranded)
                .as("rounds (of %d; %d answered acquired) whose lock stayed held by an acquisition nobody tracks",
                        ROUNDS, acquired)
                .isZero();
    }

    /** See {@link #gate}. */
    private static final class CompletionGate {

        private final AtomicBoolean completing = new AtomicBoolean();

        CompletableFuture<?> wrap(CompletableFuture<?> future) {
            return new CompletableFuture<Object>() {
                @Override
                public boolean complete(Object value) {
                    completing.set(true);
                    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
                    while (!isCancelled() && System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    return super.complete(value);
                }
            };
        }

        boolean completing() {
            return completing.get();
        }

        void reset() {
            completing.set(false);
        }
    }

    private boolean freeNow(String key) {
        ReactiveDistributedLock probe = locks.registry().obtain(key);
        for (int attempt = 0; attempt < 50; attempt++) {
            if (RegistryFixture.await(probe.acquireOnce())) {
                RegistryFixture.await(probe.release());
                return true;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
