package io.quarkiverse.lock.tck;

import static io.quarkiverse.lock.tck.TckSupport.acquired;
import static io.quarkiverse.lock.tck.TckSupport.acquiredSoon;
import static io.quarkiverse.lock.tck.TckSupport.await;
import static io.quarkiverse.lock.tck.TckSupport.newKey;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.spi.StandaloneLockRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * Waiting for a lock through the public API: contenders served one at a time, in the order they came (in one instance
 * and across instances), woken by a release of another instance, giving up, and cancelled or interrupted waits that
 * leave nothing held.
 */
public interface LockWaitingContract extends StoreFixture {

    @Test
    default void threeContendersWaitingThreeSecondsForTwoSecondActionsTwoSucceedOneGivesUp() {
        Overlap overlap = new Overlap();
        List<String> results = threeContenders(newKey("wait-3s"), overlap,
                (lock, action) -> lock.acquireAndExecute(Duration.ofSeconds(3), action)
                        .onFailure(CannotAcquireLockException.class).recoverWithItem("FAILED"));
        assertThat(results).containsExactlyInAnyOrder("OK", "OK", "FAILED");
        assertThat(overlap.max()).isEqualTo(1);
    }

    @Test
    default void threeContendersWithTheDefaultWaitAllSucceedOneAtATime() {
        Overlap overlap = new Overlap();
        List<String> results = threeContenders(newKey("wait-default"), overlap, ReactiveDistributedLock::acquireAndExecute);
        assertThat(results).containsExactly("OK", "OK", "OK");
        assertThat(overlap.max()).isEqualTo(1);
    }

    /**
     * Three handles on {@code key} each run, all at once, a two-second action that {@code overlap} guards and that
     * ends with {@code OK}.
     *
     * @param execution how a handle runs the action
     * @return what the three executions ended with, in the order they were started
     */
    private List<String> threeContenders(String key, Overlap overlap,
            BiFunction<ReactiveDistributedLock, Uni<String>, Uni<String>> execution) {
        List<Uni<String>> contenders = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Uni<String> action = overlap.guard(Uni.createFrom().item("OK").onItem().delayIt().by(Duration.ofSeconds(2)));
            contenders.add(execution.apply(registry().obtain(key), action));
        }
        return await(Uni.join().all(contenders).andFailFast());
    }

    @Test
    default void aCancelledWaitLeavesNothingHeld() throws InterruptedException {
        String key = newKey("cancel-wait");
        ReactiveDistributedLock holder = acquired(registry(), key);

        ReactiveDistributedLock waiter = registry().obtain(key);
        AtomicReference<Boolean> outcome = new AtomicReference<>();
        Cancellable waiting = waiter.acquire(Duration.ofSeconds(20)).subscribe().with(outcome::set);
        Thread.sleep(50);
        waiting.cancel();
        assertThat(await(holder.release())).isTrue();

        assertThat(await(registry().obtain(key).acquireOnce())).isTrue();
        assertThat(outcome.get()).isNull();
        assertThat(waiter.fencingToken()).isEmpty();
    }

    @Test
    default void acquisitionsCancelledRightAfterSubscriptionHoldNothingUnlessTheyReportedTheLock() {
        String key = newKey("cancel-in-flight");
        List<ReactiveDistributedLock> handles = new ArrayList<>();
        List<AtomicReference<Boolean>> outcomes = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ReactiveDistributedLock handle = registry().obtain(key);
            AtomicReference<Boolean> outcome = new AtomicReference<>();
            handle.acquire(Duration.ofSeconds(20)).subscribe().with(outcome::set).cancel();
            handles.add(handle);
            outcomes.add(outcome);
        }
        for (int i = 0; i < handles.size(); i++) {
            if (Boolean.TRUE.equals(outcomes.get(i).get())) {
                assertThat(await(handles.get(i).release())).isTrue();
            }
        }
        acquiredSoon(registry(), key);
    }

    @Test
    default void anInterruptedBlockingAcquisitionIsAbandonedAndNeverHoldsTheLockLater() throws InterruptedException {
        String key = newKey("interrupted");
        ReactiveDistributedLock holder = acquired(registry(), key);
        DistributedLock blocking = registry().obtainBlocking(key).withLeaseRenewal(true);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            try {
                blocking.acquire(Duration.ofSeconds(10), Duration.ofSeconds(1));
            } catch (RuntimeException e) {
                thrown.set(e);
            } finally {
                stillInterrupted.set(Thread.currentThread().isInterrupted());
                done.countDown();
            }
        });
        waiter.start();
        Thread.sleep(300);
        waiter.interrupt();
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(thrown.get()).isInstanceOf(CompletionException.class).hasCauseInstanceOf(InterruptedException.class);
        assertThat(stillInterrupted.get()).isTrue();

        assertThat(await(holder.release())).isTrue();
        ReactiveDistributedLock third = acquiredSoon(registry(), key);
        assertThat(blocking.isAcquired()).isFalse();
        assertThat(await(third.release())).isTrue();
    }

    @Test
    default void aReleaseWakesAWaiterOfAnotherInstanceThatNeverPolls() {
        String key = newKey("wake-up");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquire(Duration.ZERO, Duration.ofMinutes(1)))).isTrue();
        long holderToken = holder.fencingToken().getAsLong();
        StandaloneLockRegistry other = instance().pollBetweenAttempts(Duration.ofHours(1), Duration.ofHours(1)).start();
        try {
            ReactiveDistributedLock waiter = other.obtain(key);
            CountDownLatch waiting = new CountDownLatch(1);
            AtomicReference<Boolean> outcome = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            waiter.acquire(Duration.ofSeconds(20)).onSubscription().invoke(waiting::countDown)
                    .subscribe().with(acquired -> {
                        outcome.set(acquired);
                        done.countDown();
                    });
            assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(await(holder.release())).isTrue();

            assertThat(done.await(15, TimeUnit.SECONDS))
                    .as("woken by the release: its polls are an hour apart and the holder's lease a minute long")
                    .isTrue();
            assertThat(outcome.get()).isTrue();
            assertThat(waiter.fencingToken().getAsLong()).isGreaterThan(holderToken);
            assertThat(await(waiter.release())).isTrue();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        } finally {
            other.close();
        }
    }

    @Test
    default void localWaitersGetTheLockInTheOrderTheyCameIn() throws InterruptedException {
        String key = newKey("fifo");
        assertServedInArrivalOrder(key, name -> registry().obtain(key));
    }

    @Test
    default void waitersOfSeveralInstancesGetTheLockInTheOrderTheyCameIn() throws InterruptedException {
        String key = newKey("fair");
        List<StandaloneLockRegistry> instances = new ArrayList<>();
        try {
            assertServedInArrivalOrder(key, name -> {
                StandaloneLockRegistry instance = startInstance();
                instances.add(instance);
                return instance.obtain(key);
            });
        } finally {
            instances.forEach(StandaloneLockRegistry::close);
        }
    }

    /**
     * Four waiters come one after the other (150 ms apart, time enough for a new instance to connect and join the
     * line) while the lock is held; once it is released, each takes and releases it
     * in turn, and the order they took it in must be the order they came in.
     */
    private void assertServedInArrivalOrder(String key, Function<String, ReactiveDistributedLock> waiterNamed)
            throws InterruptedException {
        ReactiveDistributedLock holder = acquired(registry(), key);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<Uni<Boolean>> turns = new ArrayList<>();
        for (String name : List.of("first", "second", "third", "fourth")) {
            ReactiveDistributedLock waiter = waiterNamed.apply(name);
            Uni<Boolean> turn = waiter.acquire(Duration.ofSeconds(20))
                    .invoke(acquired -> order.add(name))
                    .call(() -> waiter.release())
                    .memoize().indefinitely();
            turn.subscribe().with(ignored -> {
            });
            turns.add(turn);
            Thread.sleep(150);
        }

        assertThat(await(holder.release())).isTrue();

        await(Uni.join().all(turns).andFailFast());
        assertThat(order).containsExactly("first", "second", "third", "fourth");
    }

    @Test
    default void aWaiterThatGivesUpDoesNotHoldUpTheNextOne() {
        String key = newKey("give-up");
        ReactiveDistributedLock holder = acquired(registry(), key);
        StandaloneLockRegistry other = startInstance();
        try {
            assertThat(await(other.obtain(key).acquire(Duration.ofMillis(200)))).isFalse();
            assertThat(await(holder.release())).isTrue();

            assertThat(await(registry().obtain(key).acquireOnce()))
                    .as("the lock is free and nobody waits any more").isTrue();
        } finally {
            other.close();
        }
    }
}
