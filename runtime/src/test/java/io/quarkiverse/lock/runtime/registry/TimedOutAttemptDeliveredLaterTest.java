package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.store.ForwardingLockStore;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;

/**
 * Review of 6be2f57: the take-back of an acquisition waits for its attempt's answer, but the operation timeout of
 * {@code TimeBoundedLockStore} counts as an answer. The timeout cancels the attempt, which is exactly what a store
 * client that "delivers a command after its caller cancelled it" (the commit's premise: a driver's retried write, a
 * command already on the wire) does not honour. The take-back then goes at once, the store runs it first, and the
 * late attempt grants a lock nobody holds, for its whole lease.
 * <p>
 * Same store model as {@link AttemptDeliveredAfterCancelTest}, only networked ({@code answersAtOnce() == false}, so
 * the registry bounds it with the operation timeout) and slower than that timeout.
 */
class TimedOutAttemptDeliveredLaterTest {

    private static final long OPERATION_TIMEOUT_MILLIS = 200;
    private static final long DELIVERY_DELAY_MILLIS = 500;

    private Vertx vertx;
    private DefaultLockRegistry registry;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        LockSettings settings = new LockSettings(Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(1),
                "lock:", false, Duration.ofMillis(OPERATION_TIMEOUT_MILLIS));
        registry = new DefaultLockRegistry(new LateDeliveringNetworkStore(new InMemoryLockStore(InstantSource.system())),
                settings, new BackoffWaitStrategy(vertx), new LocalLockStates(), vertx);
        registry.start();
    }

    @AfterEach
    void stop() {
        registry.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void aTimedOutAttemptDeliveredAfterItsTakeBackLeavesAGhost() throws Exception {
        String key = "timed-out-delivered-later-" + UUID.randomUUID();
        ReactiveDistributedLock holder = registry.obtain(key);
        assertThat(holder.acquireOnce().await().atMost(Duration.ofSeconds(5))).isTrue();

        AtomicReference<Object> outcome = new AtomicReference<>();
        registry.obtain(key).acquire(Duration.ofSeconds(5), Duration.ofSeconds(30)).subscribe()
                .with(outcome::set, outcome::set);
        Thread.sleep(OPERATION_TIMEOUT_MILLIS + 100);
        System.out.printf("[break] waiting acquisition after the operation timeout: %s%n", outcome.get());
        assertThat(holder.release().await().atMost(Duration.ofSeconds(5))).isTrue();
        Thread.sleep(DELIVERY_DELAY_MILLIS + 200);

        boolean free = registry.obtain(key).acquireOnce().await().atMost(Duration.ofSeconds(5));
        System.out.printf("[break] after the timed-out attempt was delivered: lock free for the next holder: %s%n",
                free);
        assertThat(free).as("the lock is free once the timed-out acquisition's late attempt was taken back").isTrue();
    }

    /**
     * A networked store whose client delivers every waiting attempt after a delay, whatever its caller (here the
     * registry's operation timeout) does meanwhile.
     */
    private final class LateDeliveringNetworkStore extends ForwardingLockStore {

        LateDeliveringNetworkStore(LockStore delegate) {
            super(delegate);
        }

        @Override
        public boolean answersAtOnce() {
            return false;
        }

        @Override
        public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
            if (!waiting) {
                return super.tryAcquire(key, owner, leaseMillis, false);
            }
            CompletableFuture<AcquireResult> answer = new CompletableFuture<>();
            vertx.setTimer(DELIVERY_DELAY_MILLIS, id -> delegate.tryAcquire(key, owner, leaseMillis, true).subscribe()
                    .with(answer::complete, answer::completeExceptionally));
            return Uni.createFrom().completionStage(answer);
        }
    }
}
