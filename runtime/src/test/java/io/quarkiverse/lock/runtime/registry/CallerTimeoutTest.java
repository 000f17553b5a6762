package io.quarkiverse.lock.runtime.registry;

import static io.quarkiverse.lock.runtime.registry.RegistryFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.TimeoutException;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniSubscriber;
import io.smallrye.mutiny.subscription.UniSubscription;

/**
 * Timeouts of the caller's own around the lock's {@link Uni}s, as the guide's correctness page describes them:
 * Mutiny's timeout operators cancel whenever they drop a grant, and a cancellation that reaches an acquisition after
 * its grant releases it; a {@link CompletableFuture} completed by its own timeout cancels nothing, so the handle keeps
 * the hold, and the release the guide shows frees it.
 */
class CallerTimeoutTest {

    private static final Duration LEASE = Duration.ofMinutes(5);

    private final HeldReplies store = new HeldReplies();

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory().decorating((vertx, inMemory) -> store.on(inMemory));

    private String key() {
        return "caller-timeout-" + UUID.randomUUID();
    }

    /**
     * What Mutiny's {@code ifNoItem().after(d)} and {@code await().atMost(d)} do when their timer wins by an instant
     * over a grant on its way: the operator drops the grant, then cancels. The hold is released, not kept.
     */
    @Test
    void aGrantDroppedByAnOperatorThatThenCancelsIsReleased() throws Exception {
        String key = key();
        ReactiveDistributedLock lock = locks.registry().obtain(key);
        CompletableFuture<Boolean> dropped = new CompletableFuture<>();
        lock.acquire(Duration.ofSeconds(5), LEASE).subscribe().withSubscriber(new UniSubscriber<Boolean>() {

            private UniSubscription subscription;

            @Override
            public void onSubscribe(UniSubscription subscription) {
                this.subscription = subscription;
            }

            @Override
            public void onItem(Boolean item) {
                dropped.complete(item);
                subscription.cancel();
            }

            @Override
            public void onFailure(Throwable failure) {
                dropped.completeExceptionally(failure);
            }
        });
        assertThat(dropped.get(5, TimeUnit.SECONDS)).as("granted, then dropped by the caller's operator").isTrue();
        RegistryFixture.assertAcquirableSoon(locks.registry(), key);
        assertThat(await(lock.isAcquired())).as("the handle gave the dropped grant back").isFalse();
    }

    /** {@code ifNoItem().after(d)} fires while the store's grant is on its way: the late grant is given back. */
    @Test
    void aGrantArrivingAfterTheCallersTimeoutFiredIsGivenBack() throws Exception {
        String key = key();
        ReactiveDistributedLock lock = locks.registry().obtain(key);
        store.holdNextReply();
        assertThatThrownBy(() -> await(lock.acquireForever().ifNoItem().after(Duration.ofMillis(100)).fail()))
                .isInstanceOf(TimeoutException.class);
        assertThat(store.heldReplyGranted()).as("the store granted the lock, forever").isTrue();
        store.deliverHeldReply();
        RegistryFixture.assertAcquirableSoon(locks.registry(), key);
        assertThat(await(lock.isAcquired())).isFalse();
    }

    /**
     * A {@link CompletableFuture} whose own timeout completes it ({@code orTimeout}) cancels nothing: the acquisition
     * goes on, its grant is the handle's, and nobody is told. The release the guide shows on a timeout frees it.
     */
    @Test
    void aFutureCompletedByItsOwnTimeoutKeepsTheGrantUntilTheCallerReleases() throws Exception {
        String key = key();
        ReactiveDistributedLock lock = locks.registry().obtain(key);
        store.holdNextReply();
        CompletableFuture<Boolean> future = lock.acquireForever().subscribeAsCompletionStage().toCompletableFuture()
                .orTimeout(100, TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> future.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(java.util.concurrent.TimeoutException.class);
        store.deliverHeldReply();
        ReactiveDistributedLock other = locks.registry().obtain(key);
        assertThat(await(other.acquireOnce())).as("the grant nobody was told of holds the lock").isFalse();
        assertThat(await(lock.isAcquired())).isTrue();

        assertThat(await(lock.release())).as("the release on timeout frees it").isTrue();
        assertThat(await(other.acquireOnce())).isTrue();
        assertThat(await(other.release())).isTrue();
    }

    /** The release on timeout when no grant came: it answers {@code false} and frees nobody else's lock. */
    @Test
    void theReleaseOnTimeoutFreesNothingWhenNoGrantCame() {
        String key = key();
        ReactiveDistributedLock holder = locks.registry().obtain(key);
        assertThat(await(holder.acquire(Duration.ZERO, LEASE))).isTrue();
        ReactiveDistributedLock lock = locks.registry().obtain(key);
        CompletableFuture<Boolean> released = new CompletableFuture<>();
        assertThatThrownBy(() -> await(lock.acquire(Duration.ofSeconds(10), LEASE).ifNoItem()
                .after(Duration.ofMillis(100)).fail().onFailure(TimeoutException.class)
                .call(() -> lock.release().invoke(released::complete)))).isInstanceOf(TimeoutException.class);
        assertThat(released).as("the release on timeout freed nothing").isCompletedWithValue(false);
        assertThat(await(holder.release())).as("the holder's lock was not freed by the other's release").isTrue();
    }

    /** An action guarded by the lock and cut by the caller's timeout leaves the lock free at once. */
    @Test
    void anAcquireAndExecuteCutByTheCallersTimeoutLeavesNothingHeld() {
        String key = key();
        ReactiveDistributedLock lock = locks.registry().obtain(key);
        Uni<String> endless = Uni.createFrom().nothing();
        assertThatThrownBy(() -> await(lock.acquireAndExecute(Duration.ZERO, LEASE, endless).ifNoItem()
                .after(Duration.ofMillis(200)).fail())).isInstanceOf(TimeoutException.class);
        RegistryFixture.assertAcquirableSoon(locks.registry(), key);
    }
}
