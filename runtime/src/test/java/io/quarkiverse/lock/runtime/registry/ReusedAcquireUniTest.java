package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.InstantSource;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

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
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * {@code LockHandle.acquired} returns {@code new ClaimedAcquisition(..).map(..)}: one
 * {@link ClaimedAcquisition} per {@code Uni}, not per subscription, so its {@code given} flag and {@code hold} field are
 * shared by every subscription of that {@code Uni}. A Mutiny {@code Uni} is lazy and may be subscribed again (a job that
 * keeps {@code lock.acquireForever().ifNoItem().after(..).recoverWithItem(false)} in a field, {@code repeat()},
 * {@code retry()}). The first cancellation that races a grant gives the hold back and sets {@code given}; on every later
 * subscription of the same {@code Uni}, a cancellation that races a grant finds {@code given} set and gives nothing
 * back: the grant stays recorded in the handle and in the store (for ever with {@code acquireForever}), and the
 * cancelled caller was never told.
 * <p>
 * The race: the store's answer reaches {@code AcquireOperation} on another thread (as Redis replies and hand-over
 * messages do); the grant wins there, and its delivery is posted to the caller's event-loop context; the caller
 * cancels on that context before the delivery runs. The store here is the in-memory one, answering on another thread.
 */
class ReusedAcquireUniTest {

    private Vertx vertx;
    private DefaultLockRegistry registry;
    private final ExecutorService replies = Executors.newSingleThreadExecutor();

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        LockSettings settings = new LockSettings(Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(1),
                "lock:", false, Duration.ofSeconds(5));
        LockStore store = new AnsweringElsewhere(new InMemoryLockStore(InstantSource.system()), replies);
        registry = new DefaultLockRegistry(store, settings, new BackoffWaitStrategy(vertx), new LocalLockStates(),
                vertx);
        registry.start();
    }

    @AfterEach
    void stop() {
        registry.close();
        replies.shutdownNow();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @Test
    void everyCancelledSubscriptionOfOneAcquireUniGivesItsGrantBack() throws Exception {
        String key = "reused-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry.obtain(key);
        Uni<Boolean> acquireForever = lock.acquireForever();
        Context caller = vertx.getOrCreateContext();
        for (int round = 1; round <= 2; round++) {
            CompletableFuture<Boolean> grantedBeforeCancel = new CompletableFuture<>();
            caller.runOnContext(ignored -> {
                Cancellable subscription = acquireForever.subscribe().with(item -> {
                }, failure -> {
                });
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (lock.fencingToken().isEmpty() && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                // the grant won in AcquireOperation; its delivery waits for this task: the caller cancels first
                subscription.cancel();
                grantedBeforeCancel.complete(lock.fencingToken().isPresent());
            });
            assertThat(grantedBeforeCancel.get(10, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(200);
            boolean free = registry.obtain(key).acquireOnce().await().atMost(Duration.ofSeconds(5));
            assertThat(free).as("round %d: a cancelled subscription leaves the lock free", round).isTrue();
            // free it again for the next round (the other handle took it)
            assertThat(registry.boundedStore().forceRelease(key).await().atMost(Duration.ofSeconds(5))).isTrue();
        }
    }

    /** Delegates to a store, but delivers its acquisition answers on another thread, as a network store does. */
    private static final class AnsweringElsewhere extends ForwardingLockStore {

        private final ExecutorService replies;

        AnsweringElsewhere(LockStore delegate, ExecutorService replies) {
            super(delegate);
            this.replies = replies;
        }

        @Override
        public Uni<AcquireResult> tryAcquire(String key, String owner, long leaseMillis, boolean waiting) {
            return delegate.tryAcquire(key, owner, leaseMillis, waiting).emitOn(replies);
        }

        @Override
        public Uni<AcquireResult> takeOver(String key, String owner, long leaseMillis) {
            return delegate.takeOver(key, owner, leaseMillis).emitOn(replies);
        }
    }
}
