package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniSubscription;

/**
 * The randomized fault test's nested OVERLAP (seed 20261130): a cancellation that reaches an
 * {@code acquireAndExecute} after its acquisition emitted the hold but before the action's subscription reached
 * {@code flatMap} (Mutiny's {@code UniOnItemTransformToUni} cancels only an inner subscription it already has) gives
 * the hold back ({@code ClaimedAcquisition.Relay.cancel}, state EMITTED), yet the action is subscribed anyway and never
 * cancelled: the whole action, including stages that start later, runs after the lock was released, while another
 * handle holds it. In the fault run the cancellation comes from a timer ({@code ifNoItem().after(..)}) on a nested
 * level or one of its ancestors, racing the re-entry's delivery on another thread; here the action's own subscription
 * triggers it, at exactly that moment, so it happens every time.
 */
class CancelledWhileActionSubscribesTest {

    @RegisterExtension
    final RegistryFixture locks = RegistryFixture.inMemory();

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void anExecutionCancelledAsItsActionSubscribesDoesNotRunTheActionWithoutTheLock(boolean renew) throws Exception {
        String key = "cancelled-as-action-subscribes-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.SINGLE_ENTRANT).withLeaseRenewal(renew);
        ReactiveDistributedLock other = locks.registry().obtain(key, LockType.SINGLE_ENTRANT);
        AtomicReference<UniSubscription> execution = new AtomicReference<>();
        CompletableFuture<Boolean> otherAcquiredWhileActionRan = new CompletableFuture<>();
        Uni<Void> action = Uni.createFrom().deferred(() -> {
            execution.get().cancel();
            return laterStage(other, otherAcquiredWhileActionRan);
        });
        Subscriptions.subscribe(lock.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(10), action), execution::set);
        assertActionDidNotRunWithoutTheLock(otherAcquiredWhileActionRan);
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void aStreamCancelledAsItsActionSubscribesDoesNotRunTheActionWithoutTheLock(boolean renew) throws Exception {
        String key = "stream-cancelled-as-action-subscribes-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.SINGLE_ENTRANT).withLeaseRenewal(renew);
        ReactiveDistributedLock other = locks.registry().obtain(key, LockType.SINGLE_ENTRANT);
        AtomicReference<Flow.Subscription> execution = new AtomicReference<>();
        CompletableFuture<Boolean> otherAcquiredWhileActionRan = new CompletableFuture<>();
        Multi<Integer> action = Multi.createFrom().deferred(() -> {
            execution.get().cancel();
            return Multi.createFrom().item(1).onItem().call(item -> laterStage(other, otherAcquiredWhileActionRan));
        });
        lock.acquireAndExecuteMany(Duration.ZERO, Duration.ofSeconds(10), action).subscribe()
                .withSubscriber(new Flow.Subscriber<Integer>() {
                    @Override
                    public void onSubscribe(Flow.Subscription subscription) {
                        execution.set(subscription);
                        subscription.request(Long.MAX_VALUE);
                    }

                    @Override
                    public void onNext(Integer item) {
                    }

                    @Override
                    public void onError(Throwable failure) {
                    }

                    @Override
                    public void onComplete() {
                    }
                });
        assertActionDidNotRunWithoutTheLock(otherAcquiredWhileActionRan);
    }

    /** The fault run's shape: the nested level is cancelled as its section subscribes; the outer level then ends. */
    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void aNestedExecutionCancelledAsItsActionSubscribesDoesNotRunAfterTheOuterReleased(boolean renew)
            throws Exception {
        String key = "nested-cancelled-as-action-subscribes-" + UUID.randomUUID();
        ReactiveDistributedLock lock = locks.registry().obtain(key, LockType.REENTRANT).withLeaseRenewal(renew);
        ReactiveDistributedLock other = locks.registry().obtain(key, LockType.SINGLE_ENTRANT);
        AtomicReference<UniSubscription> nested = new AtomicReference<>();
        CompletableFuture<Boolean> otherAcquiredWhileActionRan = new CompletableFuture<>();
        Uni<Void> nestedAction = Uni.createFrom().deferred(() -> {
            nested.get().cancel();
            return laterStage(other, otherAcquiredWhileActionRan);
        });
        Uni<Void> outerAction = Uni.createFrom().emitter(emitter -> {
            Subscriptions.subscribe(lock.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(10), nestedAction),
                    nested::set);
            // The nested level was cancelled (as a timer would): the outer section goes on and ends.
            emitter.complete(null);
        });
        lock.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(10), outerAction).await()
                .atMost(Duration.ofSeconds(5));
        assertActionDidNotRunWithoutTheLock(otherAcquiredWhileActionRan);
    }

    /** The action's later stage: 50 ms on, notes whether {@code other} acquires the lock at that moment. */
    private static Uni<Void> laterStage(ReactiveDistributedLock other, CompletableFuture<Boolean> otherAcquired) {
        return Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(50))
                .invoke(() -> otherAcquired.complete(other.acquireOnce().await().atMost(Duration.ofSeconds(5))));
    }

    private static void assertActionDidNotRunWithoutTheLock(CompletableFuture<Boolean> otherAcquiredWhileActionRan)
            throws Exception {
        Boolean otherAcquired;
        try {
            otherAcquired = otherAcquiredWhileActionRan.get(500, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            otherAcquired = null;
        }
        assertThat(otherAcquired).as("the cancelled action's later stage ran, another handle holding the lock")
                .isNotEqualTo(Boolean.TRUE);
    }
}
