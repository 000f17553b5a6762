package io.quarkiverse.lock.tck;

import static io.quarkiverse.lock.tck.TckSupport.SHORT_LEASE;
import static io.quarkiverse.lock.tck.TckSupport.acquired;
import static io.quarkiverse.lock.tck.TckSupport.await;
import static io.quarkiverse.lock.tck.TckSupport.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * The public API on the store(), through a registry over it ({@code DefaultLockRegistry}): acquisitions and releases,
 * fencing tokens, locks acquired forever, the reentrant and overriding lock types, the blocking view, and what the
 * store must serve of keys and durations.
 */
public interface LockApiContract extends StoreFixture {

    @Test
    default void fiveConcurrentAcquireOnceOnOneKeyGrantExactlyOne() {
        String key = newKey("once");
        List<Uni<Boolean>> attempts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            attempts.add(registry().obtain(key).acquireOnce().runSubscriptionOn(Infrastructure.getDefaultExecutor()));
        }
        List<Boolean> results = await(Uni.join().all(attempts).andFailFast());
        assertThat(results).hasSize(5).containsOnlyOnce(true);
    }

    @Test
    default void aHandleThatDoesNotHoldTheLockCannotReleaseIt() {
        String key = newKey("non-holder");
        ReactiveDistributedLock holder = registry().obtain(key);
        ReactiveDistributedLock other = registry().obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();

        assertThat(await(other.release())).isFalse();

        assertThat(await(holder.isAcquired())).isTrue();
        assertThat(await(registry().obtain(key).acquireOnce())).isFalse();
        assertThat(await(holder.release())).isTrue();
    }

    @Test
    default void theHolderCannotAcquireAgainAndDoesNotWaitForItself() {
        String key = newKey("single-entrant");
        ReactiveDistributedLock holder = acquired(registry(), key);
        long start = System.nanoTime();
        assertThat(await(holder.acquire(Duration.ofSeconds(20)))).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(await(holder.release())).isTrue();
        assertThat(await(holder.release())).isFalse();
    }

    @Test
    default void fencingTokensStrictlyIncreaseAcrossAcquisitionsReleasesAndExpiries() {
        String key = newKey("fencing");
        List<Long> tokens = new ArrayList<>();

        ReactiveDistributedLock first = registry().obtain(key);
        assertThat(first.fencingToken()).isEmpty();
        assertThat(await(first.acquireOnce())).isTrue();
        tokens.add(first.fencingToken().getAsLong());
        assertThat(await(first.release())).isTrue();
        assertThat(first.fencingToken()).isEmpty();

        ReactiveDistributedLock second = acquired(registry(), key, SHORT_LEASE);
        tokens.add(second.fencingToken().getAsLong());
        letLeasesRunOut(SHORT_LEASE);

        ReactiveDistributedLock third = acquired(registry(), key);
        tokens.add(third.fencingToken().getAsLong());
        assertThat(await(third.release())).isTrue();

        assertThat(await(first.acquireOnce())).isTrue();
        tokens.add(first.fencingToken().getAsLong());
        assertThat(await(first.release())).isTrue();

        assertThat(tokens).hasSize(4).isSorted().doesNotHaveDuplicates();
        assertThat(tokens.get(0)).isPositive();
    }

    @Test
    default void anInterruptedThreadStillReleasesItsLockAndKeepsItsInterruptStatus() {
        String key = newKey("interrupted-release");
        DistributedLock lock = registry().obtainBlocking(key);
        assertThat(lock.acquireOnce()).isTrue();
        Thread.currentThread().interrupt();
        boolean released;
        try {
            released = lock.release();
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt status is kept").isTrue();
        }
        assertThat(released).isTrue();

        String result;
        try {
            result = registry().obtainBlocking(key).acquireAndExecute(() -> {
                Thread.currentThread().interrupt();
                return "done";
            });
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt status is kept").isTrue();
        }
        assertThat(result).isEqualTo("done");
        assertThat(await(registry().obtain(key).acquireOnce())).as("both sections released the lock").isTrue();
    }

    @Test
    default void theBlockingViewHasTheSameSemantics() {
        String key = newKey("blocking");
        DistributedLock lock = registry().obtainBlocking(key);
        DistributedLock other = registry().obtainBlocking(key);

        assertThat(lock.acquireOnce()).isTrue();
        OptionalLong token = lock.fencingToken();
        assertThat(token).isPresent();
        assertThat(lock.isAcquired()).isTrue();
        assertThat(other.acquire(Duration.ofMillis(50))).isFalse();
        assertThat(other.release()).isFalse();
        assertThat(lock.release()).isTrue();

        assertThat(other.acquireAndExecute(() -> "done")).isEqualTo("done");
        IllegalStateException failure = new IllegalStateException("boom");
        assertThatThrownBy(() -> other.acquireAndExecute(Duration.ZERO, () -> {
            throw failure;
        })).isSameAs(failure);
        assertThat(lock.acquireOnce()).isTrue();
        assertThat(lock.fencingToken().getAsLong()).isGreaterThan(token.getAsLong());
        assertThat(lock.toReactive().getLockKey()).isEqualTo(key);
        assertThat(lock.release()).isTrue();
    }

    @Test
    default void hugeDurationsAreEitherServedOrRefusedClearly() {
        ReactiveDistributedLock lock = registry().obtain(newKey("huge"));
        assertThat(await(lock.acquire(Duration.ofDays(365_000)))).as("a wait too long to count is served")
                .isTrue();
        assertThat(await(lock.release())).isTrue();
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofMillis(Long.MAX_VALUE)))
                .as("a lease that counts in milliseconds, but whose end from now would overflow")
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThat(lock.fencingToken()).isEmpty();
    }

    @Test
    default void theLongestLeaseHoldsTheLock() {
        String key = newKey("longest");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquire(Duration.ZERO, Duration.ofDays(36_500)))).isTrue();
        assertThat(await(registry().obtain(key).acquireOnce())).as("another handle, under a 100-year lease").isFalse();
        assertThat(await(holder.isAcquired())).isTrue();
        assertThat(await(holder.release())).isTrue();
        assertThat(await(registry().obtain(key).acquireOnce())).as("free once released").isTrue();
    }

    @Test
    default void aLockAcquiredForeverOutlivesLeasesUntilItsHolderReleasesIt() {
        String key = newKey("forever");
        ReactiveDistributedLock holder = registry().obtain(key);
        ReactiveDistributedLock other = registry().obtain(key);

        assertThat(await(holder.acquireForever())).isTrue();
        assertThat(await(other.acquireForever())).isFalse();
        assertThat(await(holder.acquireForever())).as("single-entrant").isFalse();
        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(other.acquire(Duration.ofMillis(200)))).isFalse();
        assertThat(await(holder.isAcquired())).isTrue();

        assertThat(await(holder.release())).isTrue();
        assertThat(await(other.acquireOnce())).isTrue();
        assertThat(other.fencingToken().getAsLong()).isGreaterThan(0);
        assertThat(await(other.release())).isTrue();
        assertThat(registry().obtainBlocking(key).acquireForever()).isTrue();
    }

    @Test
    default void aReentrantHandleEntersAgainAtOnceAndFreesTheLockAtItsLastRelease() {
        String key = newKey("reentrant");
        ReactiveDistributedLock reentrant = registry().obtain(key, LockType.REENTRANT);
        ReactiveDistributedLock other = registry().obtain(key);
        assertThat(await(reentrant.acquireOnce())).isTrue();
        long token = reentrant.fencingToken().getAsLong();

        assertThat(await(reentrant.acquire(Duration.ofSeconds(20)))).isTrue();
        assertThat(await(reentrant.acquireOnce())).isTrue();
        assertThat(reentrant.fencingToken()).hasValue(token);

        assertThat(await(reentrant.release())).isTrue();
        assertThat(await(reentrant.release())).isTrue();
        assertThat(await(other.acquireOnce())).as("one entry is left").isFalse();
        assertThat(await(reentrant.isAcquired())).isTrue();
        assertThat(await(reentrant.release())).isTrue();
        assertThat(await(reentrant.release())).as("no entry is left").isFalse();
        assertThat(await(other.acquireOnce())).isTrue();
        assertThat(await(other.release())).isTrue();
    }

    @Test
    default void aReentrantHandleRunsANestedSectionInsideItsOuterOne() {
        String key = newKey("reentrant-nested");
        ReactiveDistributedLock reentrant = registry().obtain(key, LockType.REENTRANT);
        Uni<String> nested = reentrant.acquireAndExecute(Duration.ZERO,
                reentrant.acquireAndExecute(Duration.ZERO, Uni.createFrom().item("inner")).map(inner -> "outer+" + inner));

        assertThat(await(nested)).isEqualTo("outer+inner");
        assertThat(reentrant.fencingToken()).isEmpty();
        assertFree(key);
    }

    @Test
    default void aReentryFindsALostLockAndAcquiresItAfresh() {
        String key = newKey("reentrant-lost");
        ReactiveDistributedLock reentrant = registry().obtain(key, LockType.REENTRANT);
        assertThat(await(reentrant.acquire(Duration.ZERO, SHORT_LEASE))).isTrue();
        long lostToken = reentrant.fencingToken().getAsLong();
        letLeasesRunOut(SHORT_LEASE);

        assertThat(await(reentrant.acquireOnce())).isTrue();
        assertThat(reentrant.fencingToken().getAsLong()).isGreaterThan(lostToken);
        assertThat(await(reentrant.release())).isTrue();
        assertThat(await(reentrant.release())).as("the lost hold's entry went with it").isFalse();
    }

    @Test
    default void aReentrantLockAcquiredForeverStaysForeverWhenEnteredAgain() {
        String key = newKey("reentrant-forever");
        ReactiveDistributedLock reentrant = registry().obtain(key, LockType.REENTRANT);
        assertThat(await(reentrant.acquireForever())).isTrue();
        assertThat(await(reentrant.acquireForever())).isTrue();
        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(registry().obtain(key).acquireOnce())).isFalse();
        assertThat(await(reentrant.release())).isTrue();
        assertThat(await(reentrant.release())).isTrue();
        assertThat(await(reentrant.isAcquired())).isFalse();
    }

    @Test
    default void anOverridingHandleTakesTheLockFromItsHolderWithAGreaterToken() {
        String key = newKey("overriding");
        ReactiveDistributedLock holder = holdingForever(key);
        ReactiveDistributedLock admin = registry().obtain(key, LockType.OVERRIDING);

        assertThat(await(admin.acquireOnce())).isTrue();
        assertThat(admin.fencingToken().getAsLong()).isGreaterThan(holder.fencingToken().getAsLong());
        assertThat(await(admin.isAcquired())).isTrue();
        assertThat(await(holder.isAcquired())).isFalse();
        assertThatThrownBy(() -> await(holder.release())).isInstanceOf(LockExpiredException.class);

        assertThat(await(admin.release())).isTrue();
        assertFree(key);
    }

    @Test
    default void anOverridingReleaseFreesTheLockWhoeverHoldsIt() {
        String key = newKey("overriding-release");
        ReactiveDistributedLock holder = holdingForever(key);
        ReactiveDistributedLock admin = registry().obtain(key, LockType.OVERRIDING);

        assertThat(await(admin.release())).isTrue();
        assertThat(await(holder.isAcquired())).isFalse();
        assertThat(await(admin.release())).as("nobody holds it now").isFalse();
        assertFree(key);
    }

    @Test
    default void anOverridingReleaseHandsTheLockToAWaiter() {
        String key = newKey("overriding-waiter");
        ReactiveDistributedLock holder = holdingForever(key);
        ReactiveDistributedLock waiter = registry().obtain(key);
        Uni<Boolean> waiting = waiter.acquire(Duration.ofSeconds(20)).memoize().indefinitely();
        waiting.subscribe().with(ignored -> {
        });

        assertThat(await(registry().obtain(key, LockType.OVERRIDING).release())).isTrue();
        assertThat(await(waiting)).isTrue();
        assertThat(await(waiter.release())).isTrue();
    }

    /** A new handle acquires {@code key} at once, then releases it: nobody holds it. */
    private void assertFree(String key) {
        ReactiveDistributedLock next = acquired(registry(), key);
        assertThat(await(next.release())).isTrue();
    }

    /** @return a new handle of {@code key} that acquired it for ever */
    private ReactiveDistributedLock holdingForever(String key) {
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquireForever())).isTrue();
        return holder;
    }
}
