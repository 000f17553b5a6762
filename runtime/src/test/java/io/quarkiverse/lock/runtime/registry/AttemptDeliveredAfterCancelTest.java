package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

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
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;

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

    private Vertx vertx;
    private DefaultLockRegistry registry;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        LockSettings settings = new LockSettings(Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(1),
                "lock:", false, Duration.ofSeconds(5));
        registry = new DefaultLockRegistry(new LateDeliveringStore(new InMemoryLockStore(InstantSource.system())),
                settings, new BackoffWaitStrategy(vertx), new LocalLockStates(), vertx);
        registry.start();
    }

    @AfterEach
    void stop() {
        registry.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void theTakeBackOfACancelledAcquisitionReachesTheStoreAfterItsAttempt() throws Exception {
        String key = "delivered-after-cancel-" + UUID.randomUUID();
        ReactiveDistributedLock holder = registry.obtain(key);
        assertThat(holder.acquireOnce().await().atMost(Duration.ofSeconds(5))).isTrue();

        Cancellable waiting = registry.obtain(key).acquire(Duration.ofSeconds(5), Duration.ofSeconds(30)).subscribe()
                .with(ignored -> {
                }, ignored -> {
                });
        Thread.sleep(50);
        waiting.cancel();
        assertThat(holder.release().await().atMost(Duration.ofSeconds(5))).isTrue();
        Thread.sleep(DELIVERY_DELAY_MILLIS + 200);

        boolean free = registry.obtain(key).acquireOnce().await().atMost(Duration.ofSeconds(5));
        System.out.printf("[break] after the cancelled attempt was delivered: lock free for the next holder: %s%n", free);
        assertThat(free).as("the lock is free once the cancelled acquisition's late attempt was taken back").isTrue();
    }

    /** Delivers every waiting attempt to the store after a delay, whatever its caller does meanwhile. */
    private final class LateDeliveringStore extends ForwardingLockStore {

        LateDeliveringStore(LockStore delegate) {
            super(delegate);
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
