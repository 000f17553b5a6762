package io.quarkiverse.lock.tck;

import static io.quarkiverse.lock.tck.TckSupport.TIMEOUT;
import static io.quarkiverse.lock.tck.TckSupport.acquired;
import static io.quarkiverse.lock.tck.TckSupport.acquiredSoon;
import static io.quarkiverse.lock.tck.TckSupport.await;
import static io.quarkiverse.lock.tck.TckSupport.eventually;
import static io.quarkiverse.lock.tck.TckSupport.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * Guarded execution through the public API ({@code acquireAndExecute}, {@code acquireAndExecuteMany}): the action runs
 * only while the lock is held, and the lock is released on its item, completion, failure and cancellation; sections
 * of one handle run one after the other; a wait that runs out fails without running the action.
 */
public interface LockExecutionContract extends StoreFixture {

    @Test
    default void anActionRunsOnlyWhileTheLockIsHeldAndItsItemIsReturned() {
        String key = newKey("action");
        ReactiveDistributedLock lock = registry().obtain(key);
        ReactiveDistributedLock probe = registry().obtain(key);
        Uni<Boolean> action = Uni.createFrom().deferred(() -> probe.acquireOnce().map(acquired -> !acquired));

        assertThat(await(lock.acquireAndExecute(action))).isTrue();
        assertThat(await(probe.acquireOnce())).isTrue();
    }

    @Test
    default void aFailingActionReleasesTheLockAndItsFailureReachesTheCallerUnchanged() {
        String key = newKey("failing-action");
        IllegalStateException failure = new IllegalStateException("payment declined");
        ReactiveDistributedLock lock = registry().obtain(key);

        assertThatThrownBy(() -> await(lock.acquireAndExecute(Uni.createFrom().failure(failure))))
                .isSameAs(failure);
        assertThat(failure.getSuppressed()).isEmpty();
        assertThat(lock.fencingToken()).isEmpty();
        assertThat(await(registry().obtain(key).acquireOnce())).isTrue();
    }

    @Test
    default void anActionThatFailsWhileBeingBuiltReleasesTheLockAndItsFailureReachesTheCaller() {
        String key = newKey("throws-early");
        IllegalStateException failure = new IllegalStateException("no connection for the payment");
        Uni<String> action = Uni.createFrom().deferred(() -> {
            throw failure;
        });

        assertThatThrownBy(() -> await(registry().obtain(key).acquireAndExecute(action))).isSameAs(failure);
        assertThat(await(registry().obtain(key).acquireOnce())).isTrue();
    }

    @Test
    default void aStreamRunsWhileTheLockIsHeldAndReleasesItOnCompletionAndOnFailure() {
        String key = newKey("stream");
        ReactiveDistributedLock lock = registry().obtain(key);
        ReactiveDistributedLock probe = registry().obtain(key);
        Multi<Boolean> stream = Multi.createFrom().range(0, 3)
                .onItem().transformToUniAndConcatenate(i -> probe.acquireOnce().map(acquired -> !acquired));

        List<Boolean> items = lock.acquireAndExecuteMany(stream).collect().asList().await().atMost(TIMEOUT);

        assertThat(items).containsExactly(true, true, true);
        assertThat(await(probe.acquireOnce())).isTrue();
        assertThat(await(probe.release())).isTrue();

        IllegalArgumentException failure = new IllegalArgumentException("bad row");
        assertThatThrownBy(() -> lock.acquireAndExecuteMany(Duration.ZERO, Multi.createFrom().failure(failure))
                .collect().asList().await().atMost(TIMEOUT)).isSameAs(failure);
        assertThat(await(probe.acquireOnce())).isTrue();
    }

    @Test
    default void acquireAndExecuteFailsWithCannotAcquireWhenTheWaitRunsOutAndDoesNotRunTheAction() {
        String key = newKey("busy");
        assertThat(await(registry().obtain(key).acquireOnce())).isTrue();
        AtomicInteger runs = new AtomicInteger();

        assertThatThrownBy(() -> await(registry().obtain(key).acquireAndExecute(Duration.ofMillis(100),
                Uni.createFrom().item(runs::incrementAndGet))))
                .isInstanceOf(CannotAcquireLockException.class)
                .hasMessageContaining(key);
        assertThat(runs.get()).isZero();
    }

    @Test
    default void aCancelledAcquireAndExecuteReleasesTheLock() throws InterruptedException {
        String key = newKey("cancel-action");
        EndlessAction endless = new EndlessAction();
        Cancellable running = registry().obtain(key).acquireAndExecute(endless.action).subscribe().with(ignored -> {
        });
        assertThat(endless.awaitStart()).isTrue();
        assertThat(await(registry().obtain(key).acquireOnce())).isFalse();

        running.cancel();

        assertThat(endless.cancellations()).isEqualTo(1);
        acquiredSoon(registry(), key);
    }

    @Test
    default void twoWaitingAcquisitionsOfOneHandleRunTheirSectionsOneAfterTheOther() throws Exception {
        String key = newKey("one-handle-twice");
        ReactiveDistributedLock blocker = acquired(registry(), key);
        ReactiveDistributedLock handle = registry().obtain(key);
        Overlap overlap = new Overlap();
        ControlledSection first = new ControlledSection();
        ControlledSection second = new ControlledSection();
        CompletableFuture<String> firstDone = handle.acquireAndExecute(Duration.ofSeconds(20),
                overlap.guard(first.run("first"))).subscribeAsCompletionStage();
        CompletableFuture<String> secondDone = handle.acquireAndExecute(Duration.ofSeconds(20),
                overlap.guard(second.run("second"))).subscribeAsCompletionStage();
        assertThat(await(blocker.release())).isTrue();

        ControlledSection running = ControlledSection.firstToStart(first, second);
        ControlledSection waiting = running == first ? second : first;
        Thread.sleep(300);
        assertThat(waiting.started.getCount()).as("the other section waits for the first").isEqualTo(1);
        running.finish();
        assertThat(waiting.started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(await(registry().obtain(key).acquireOnce())).as("the second section holds the lock").isFalse();
        waiting.finish();

        assertThat(firstDone.get(10, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(secondDone.get(10, TimeUnit.SECONDS)).isEqualTo("second");
        assertThat(overlap.max()).isEqualTo(1);
        acquiredSoon(registry(), key);
    }

    @Test
    default void cancellingAnExecutionThatNeverGotTheLockKeepsTheHoldTheHandleHad() throws InterruptedException {
        String key = newKey("cancel-keeps-hold");
        ReactiveDistributedLock single = acquired(registry(), key);
        single.acquireAndExecute(Duration.ofSeconds(5), Uni.createFrom().item("never")).subscribe().with(ignored -> {
        }, ignored -> {
        }).cancel();
        Thread.sleep(200);
        assertThat(await(registry().obtain(key).acquireOnce())).as("the handle's own hold is kept").isFalse();
        assertThat(await(single.release())).isTrue();

        ReactiveDistributedLock reentrant = registry().obtain(key, LockType.REENTRANT);
        assertThat(await(reentrant.acquireOnce())).isTrue();
        reentrant.acquireAndExecute(Duration.ZERO, Uni.createFrom().<String> nothing()).subscribe().with(ignored -> {
        }).cancel();
        Thread.sleep(200);
        assertThat(await(registry().obtain(key).acquireOnce())).as("the outer section's hold is kept").isFalse();
        assertThat(await(reentrant.release())).as("the outer entry").isTrue();
        assertThat(await(reentrant.release())).as("no entry of the cancelled section is left").isFalse();
        acquiredSoon(registry(), key);
    }

    @Test
    default void cancelledOverridingExecutionsLeaveNothingHeld() {
        String key = newKey("cancel-override");
        for (int i = 0; i < 20; i++) {
            registry().obtain(key, LockType.OVERRIDING)
                    .acquireAndExecute(Duration.ZERO, Duration.ofMinutes(5), Uni.createFrom().<String> nothing())
                    .subscribe().with(ignored -> {
                    }).cancel();
        }
        ReactiveDistributedLock other = registry().obtain(key);
        eventually(() -> acquiredAndReleased(other));
    }

    /**
     * A take-over still on its way when its execution was cancelled may reach the store after another handle
     * acquired, take the lock over and be taken back (overriding is that), so the other handle's release may find its
     * hold gone: it tries again. What must never happen is the lock staying held.
     */
    private static boolean acquiredAndReleased(ReactiveDistributedLock lock) {
        if (!await(lock.acquireOnce())) {
            return false;
        }
        try {
            return await(lock.release());
        } catch (LockExpiredException overriddenMeanwhile) {
            return false;
        }
    }
}
