package io.quarkiverse.lock.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.DistributedLock;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.migration.ChangeSet;
import io.quarkiverse.lock.migration.MigrationFailedException;
import io.quarkiverse.lock.migration.MigrationReport;
import io.quarkiverse.lock.runtime.migration.StoreLockMigrator;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.waiting.BackoffWaitStrategy;
import io.quarkiverse.lock.runtime.waiting.WaitStrategy;
import io.quarkiverse.lock.spi.LockStore;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;

/**
 * The behaviour of a lock, stated once: every store runs all of it by extending this class.
 * <p>
 * Each test uses keys of its own, so the tests can share one store. Expiry is driven through
 * {@link #letLeasesRunOut(Duration)}: stores with an injectable clock advance it, stores on a real server wait.
 */
public abstract class LockContract {

    /** The lease of acquisitions that a test lets run out. */
    protected static final Duration SHORT_LEASE = Duration.ofMillis(300);
    private static final long HOUR = Duration.ofHours(1).toMillis();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * @return the registry under test
     */
    protected abstract LockRegistry registry();

    /**
     * Makes every lease of at most {@code lease}, granted before this call, run out. Stores on a real server wait for
     * the lease and 100 ms more (this default); stores with an injectable clock advance it instead.
     *
     * @param lease the longest lease to let run out
     */
    protected void letLeasesRunOut(Duration lease) {
        try {
            Thread.sleep(lease.plusMillis(100).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * @return how many entries the store holds (keys in Redis, documents, ...), to check a call left nothing behind
     */
    protected abstract long storeSize();

    /**
     * Starts another instance of the application on the same store, as a separate JVM would be (in-memory: the same
     * JVM, which is the only place its locks are shared). The test closes it.
     *
     * @param waitStrategy how its waiting acquisitions pause
     * @return the other instance's registry, started
     */
    protected abstract DefaultLockRegistry startInstance(WaitStrategy waitStrategy);

    /**
     * Deletes a lock from the store behind its holder's back, as an administrator would.
     *
     * @param key the lock key
     */
    protected abstract void deleteLock(String key);

    /**
     * @return the Vert.x instance the registry runs on
     */
    protected abstract Vertx vertx();

    private static String newKey(String name) {
        return name + "-" + UUID.randomUUID();
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(TIMEOUT);
    }

    @Test
    void fiveConcurrentAcquireOnceOnOneKeyGrantExactlyOne() {
        String key = newKey("once");
        List<Uni<Boolean>> attempts = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            attempts.add(registry().obtain(key).acquireOnce().runSubscriptionOn(Infrastructure.getDefaultExecutor()));
        }
        List<Boolean> results = await(Uni.join().all(attempts).andFailFast());
        assertThat(results).hasSize(5).containsOnlyOnce(true);
    }

    @Test
    void threeContendersWaitingThreeSecondsForTwoSecondActionsTwoSucceedOneGivesUp() {
        String key = newKey("wait-3s");
        Overlap overlap = new Overlap();
        List<Uni<String>> contenders = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            contenders.add(registry().obtain(key)
                    .acquireAndExecute(Duration.ofSeconds(3), overlap.guard(Uni.createFrom().item("OK")
                            .onItem().delayIt().by(Duration.ofSeconds(2))))
                    .onFailure(CannotAcquireLockException.class).recoverWithItem("FAILED"));
        }
        List<String> results = await(Uni.join().all(contenders).andFailFast());
        assertThat(results).containsExactlyInAnyOrder("OK", "OK", "FAILED");
        assertThat(overlap.max()).isEqualTo(1);
    }

    @Test
    void threeContendersWithTheDefaultWaitAllSucceedOneAtATime() {
        String key = newKey("wait-default");
        Overlap overlap = new Overlap();
        List<Uni<String>> contenders = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            contenders.add(registry().obtain(key).acquireAndExecute(overlap.guard(Uni.createFrom().item("OK")
                    .onItem().delayIt().by(Duration.ofSeconds(2)))));
        }
        assertThat(await(Uni.join().all(contenders).andFailFast())).containsExactly("OK", "OK", "OK");
        assertThat(overlap.max()).isEqualTo(1);
    }

    @Test
    void aHandleThatDoesNotHoldTheLockCannotReleaseIt() {
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
    void theHolderCannotAcquireAgainAndDoesNotWaitForItself() {
        String key = newKey("single-entrant");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();
        long start = System.nanoTime();
        assertThat(await(holder.acquire(Duration.ofSeconds(20)))).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(await(holder.release())).isTrue();
        assertThat(await(holder.release())).isFalse();
    }

    @Test
    void aReleaseAfterTheLeaseRanOutFailsAndAnotherHandleCanThenTakeTheLock() {
        String key = newKey("expired");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquire(Duration.ZERO, SHORT_LEASE))).isTrue();

        letLeasesRunOut(SHORT_LEASE);

        assertThat(await(holder.isAcquired())).isFalse();
        assertThatThrownBy(() -> await(holder.release()))
                .isInstanceOf(LockExpiredException.class)
                .hasMessageContaining(key)
                .hasMessageContaining("integrity");
        assertThat(await(registry().obtain(key).acquireOnce())).isTrue();
    }

    @Test
    void fencingTokensStrictlyIncreaseAcrossAcquisitionsReleasesAndExpiries() {
        String key = newKey("fencing");
        List<Long> tokens = new ArrayList<>();

        ReactiveDistributedLock first = registry().obtain(key);
        assertThat(first.fencingToken()).isEmpty();
        assertThat(await(first.acquireOnce())).isTrue();
        tokens.add(first.fencingToken().getAsLong());
        assertThat(await(first.release())).isTrue();
        assertThat(first.fencingToken()).isEmpty();

        ReactiveDistributedLock second = registry().obtain(key);
        assertThat(await(second.acquire(Duration.ZERO, SHORT_LEASE))).isTrue();
        tokens.add(second.fencingToken().getAsLong());
        letLeasesRunOut(SHORT_LEASE);

        ReactiveDistributedLock third = registry().obtain(key);
        assertThat(await(third.acquireOnce())).isTrue();
        tokens.add(third.fencingToken().getAsLong());
        assertThat(await(third.release())).isTrue();

        assertThat(await(first.acquireOnce())).isTrue();
        tokens.add(first.fencingToken().getAsLong());
        assertThat(await(first.release())).isTrue();

        assertThat(tokens).hasSize(4).isSorted().doesNotHaveDuplicates();
        assertThat(tokens.get(0)).isPositive();
    }

    @Test
    void aCancelledWaitLeavesNothingHeld() throws InterruptedException {
        String key = newKey("cancel-wait");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();

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
    void acquisitionsCancelledRightAfterSubscriptionHoldNothingUnlessTheyReportedTheLock() {
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
        ReactiveDistributedLock third = registry().obtain(key);
        eventually(() -> await(third.acquireOnce()));
    }

    @Test
    void twoWaitingAcquisitionsOfOneHandleRunTheirSectionsOneAfterTheOther() throws Exception {
        String key = newKey("one-handle-twice");
        ReactiveDistributedLock blocker = registry().obtain(key);
        assertThat(await(blocker.acquireOnce())).isTrue();
        ReactiveDistributedLock handle = registry().obtain(key);
        Overlap overlap = new Overlap();
        Section first = new Section();
        Section second = new Section();
        CompletableFuture<String> firstDone = handle.acquireAndExecute(Duration.ofSeconds(20),
                overlap.guard(first.run("first"))).subscribeAsCompletionStage();
        CompletableFuture<String> secondDone = handle.acquireAndExecute(Duration.ofSeconds(20),
                overlap.guard(second.run("second"))).subscribeAsCompletionStage();
        assertThat(await(blocker.release())).isTrue();

        Section running = Section.firstToStart(first, second);
        Section waiting = running == first ? second : first;
        Thread.sleep(300);
        assertThat(waiting.started.getCount()).as("the other section waits for the first").isEqualTo(1);
        running.finish();
        assertThat(waiting.started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(await(registry().obtain(key).acquireOnce())).as("the second section holds the lock").isFalse();
        waiting.finish();

        assertThat(firstDone.get(10, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(secondDone.get(10, TimeUnit.SECONDS)).isEqualTo("second");
        assertThat(overlap.max()).isEqualTo(1);
        ReactiveDistributedLock other = registry().obtain(key);
        eventually(() -> await(other.acquireOnce()));
    }

    @Test
    void cancellingAnExecutionThatNeverGotTheLockKeepsTheHoldTheHandleHad() throws InterruptedException {
        String key = newKey("cancel-keeps-hold");
        ReactiveDistributedLock single = registry().obtain(key);
        assertThat(await(single.acquireOnce())).isTrue();
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
        ReactiveDistributedLock other = registry().obtain(key);
        eventually(() -> await(other.acquireOnce()));
    }

    @Test
    void cancelledOverridingExecutionsLeaveNothingHeld() {
        String key = newKey("cancel-override");
        for (int i = 0; i < 20; i++) {
            registry().obtain(key, LockType.OVERRIDING)
                    .acquireAndExecute(Duration.ZERO, Duration.ofMinutes(5), Uni.createFrom().<String> nothing())
                    .subscribe().with(ignored -> {
                    }).cancel();
        }
        ReactiveDistributedLock other = registry().obtain(key);
        eventually(() -> await(other.acquireOnce()));
        assertThat(await(other.release())).isTrue();
    }

    @Test
    void anInterruptedBlockingAcquisitionIsAbandonedAndNeverHoldsTheLockLater() throws InterruptedException {
        String key = newKey("interrupted");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();
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
        ReactiveDistributedLock third = registry().obtain(key);
        eventually(() -> await(third.acquireOnce()));
        assertThat(blocking.isAcquired()).isFalse();
        assertThat(await(third.release())).isTrue();
    }

    @Test
    void anInterruptedThreadStillReleasesItsLockAndKeepsItsInterruptStatus() {
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
    void aCancelledAcquireAndExecuteReleasesTheLock() throws InterruptedException {
        String key = newKey("cancel-action");
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger cancelledActions = new AtomicInteger();
        Uni<String> endless = Uni.createFrom().<String> nothing()
                .onSubscription().invoke(started::countDown)
                .onCancellation().invoke(cancelledActions::incrementAndGet);
        Cancellable running = registry().obtain(key).acquireAndExecute(endless).subscribe().with(ignored -> {
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(await(registry().obtain(key).acquireOnce())).isFalse();

        running.cancel();

        assertThat(cancelledActions.get()).isEqualTo(1);
        ReactiveDistributedLock third = registry().obtain(key);
        eventually(() -> await(third.acquireOnce()));
    }

    @Test
    void aFailingActionReleasesTheLockAndItsFailureReachesTheCallerUnchanged() {
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
    void anActionRunsOnlyWhileTheLockIsHeldAndItsItemIsReturned() {
        String key = newKey("action");
        ReactiveDistributedLock lock = registry().obtain(key);
        ReactiveDistributedLock probe = registry().obtain(key);
        Uni<Boolean> action = Uni.createFrom().deferred(() -> probe.acquireOnce().map(acquired -> !acquired));

        assertThat(await(lock.acquireAndExecute(action))).isTrue();
        assertThat(await(probe.acquireOnce())).isTrue();
    }

    @Test
    void anActionThatOutlivesItsLeaseFailsWithLockExpired() {
        String key = newKey("outlived");
        ReactiveDistributedLock lock = registry().obtain(key);
        assertThat(await(lock.acquire(Duration.ZERO, SHORT_LEASE))).isTrue();
        letLeasesRunOut(SHORT_LEASE);
        assertThatThrownBy(() -> await(lock.release())).isInstanceOf(LockExpiredException.class);
        assertThat(await(lock.release())).isFalse();
    }

    @Test
    void aStreamRunsWhileTheLockIsHeldAndReleasesItOnCompletionAndOnFailure() {
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
    void acquireAndExecuteFailsWithCannotAcquireWhenTheWaitRunsOutAndDoesNotRunTheAction() {
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
    void theBlockingViewHasTheSameSemantics() {
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
    void onlyTheHolderCanRenewItsLeaseAndOnlyWhileItHoldsTheLock() {
        String key = newKey("renew");
        DefaultLockRegistry instance = startInstance(new BackoffWaitStrategy(vertx()));
        try {
            LockStore store = instance.store();
            long shortLease = SHORT_LEASE.toMillis();
            assertThat(await(store.tryAcquire(key, "holder", shortLease, false)).acquired()).isTrue();

            assertThat(await(store.renew(key, "someone-else", 60_000))).isFalse();
            assertThat(await(store.renew(key, "holder", 60_000))).isTrue();
            letLeasesRunOut(SHORT_LEASE);
            assertThat(await(store.isHeld(key, "holder"))).as("the renewed lease outlives the first one").isTrue();
            assertThat(await(store.tryAcquire(key, "someone-else", shortLease, false)).acquired()).isFalse();

            assertThat(await(store.renew(key, "holder", shortLease))).isTrue();
            letLeasesRunOut(SHORT_LEASE);
            assertThat(await(store.renew(key, "holder", 60_000))).as("a lease that ran out cannot be renewed")
                    .isFalse();
            assertThat(await(store.isHeld(key, "holder"))).isFalse();
            assertThat(await(store.tryAcquire(key, "someone-else", shortLease, false)).acquired()).isTrue();
        } finally {
            instance.close();
        }
    }

    @Test
    void aReleaseWakesAWaiterOfAnotherInstanceThatNeverPolls() {
        String key = newKey("wake-up");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquire(Duration.ZERO, Duration.ofMinutes(1)))).isTrue();
        long holderToken = holder.fencingToken().getAsLong();
        DefaultLockRegistry other = startInstance(new BackoffWaitStrategy(vertx(), HOUR, HOUR));
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
    void localWaitersGetTheLockInTheOrderTheyCameIn() throws InterruptedException {
        String key = newKey("fifo");
        assertServedInArrivalOrder(key, name -> registry().obtain(key));
    }

    @Test
    void waitersOfSeveralInstancesGetTheLockInTheOrderTheyCameIn() throws InterruptedException {
        String key = newKey("fair");
        List<DefaultLockRegistry> instances = new ArrayList<>();
        try {
            assertServedInArrivalOrder(key, name -> {
                DefaultLockRegistry instance = startInstance(new BackoffWaitStrategy(vertx()));
                instances.add(instance);
                return instance.obtain(key);
            });
        } finally {
            instances.forEach(DefaultLockRegistry::close);
        }
    }

    /**
     * Four waiters come one after the other (150 ms apart, time enough for a new instance to connect and join the
     * line) while the lock is held; once it is released, each takes and releases it
     * in turn, and the order they took it in must be the order they came in.
     */
    private void assertServedInArrivalOrder(String key, Function<String, ReactiveDistributedLock> waiterNamed)
            throws InterruptedException {
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();
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
    void aWaiterThatGivesUpDoesNotHoldUpTheNextOne() {
        String key = newKey("give-up");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquireOnce())).isTrue();
        DefaultLockRegistry other = startInstance(new BackoffWaitStrategy(vertx()));
        try {
            assertThat(await(other.obtain(key).acquire(Duration.ofMillis(200)))).isFalse();
            assertThat(await(holder.release())).isTrue();

            assertThat(await(registry().obtain(key).acquireOnce()))
                    .as("the lock is free and nobody waits any more").isTrue();
        } finally {
            other.close();
        }
    }

    @Test
    void aRenewingHolderKeepsTheLockForThreeLeasesWhileAContenderNeverGetsIt() {
        String key = newKey("renewing");
        ReactiveDistributedLock holder = registry().obtain(key).withLeaseRenewal(true);
        ReactiveDistributedLock contender = registry().obtain(key);
        Uni<List<Boolean>> contenderAttemptsDuringThreeLeases = Multi.createBy().repeating()
                .uni(() -> contender.acquireOnce().onItem().delayIt().by(SHORT_LEASE.dividedBy(6))).atMost(20)
                .collect().asList();

        List<Boolean> attempts = await(holder.acquireAndExecute(Duration.ZERO, SHORT_LEASE,
                contenderAttemptsDuringThreeLeases));

        assertThat(attempts).hasSize(20).containsOnly(false);
        assertThat(holder.fencingToken()).isEmpty();
        assertThat(await(contender.acquireOnce())).isTrue();
    }

    @Test
    void whenTheHoldersRenewalStopsTheLockFreesWithinOneLease() {
        String key = newKey("renewal-stops");
        DefaultLockRegistry dying = startInstance(new BackoffWaitStrategy(vertx()));
        ReactiveDistributedLock holder = dying.obtain(key).withLeaseRenewal(true);
        assertThat(await(holder.acquire(Duration.ZERO, SHORT_LEASE))).isTrue();

        dying.close();

        assertThat(await(registry().obtain(key).acquireOnce())).as("held until its last lease ends").isFalse();
        letLeasesRunOut(SHORT_LEASE);
        assertThat(await(registry().obtain(key).acquireOnce())).isTrue();
    }

    @Test
    void aLockHeldAtLeastTwoSecondsStaysHeldHowEverItsSectionEndsAndFreesByItselfAfterThem() throws Exception {
        Duration holdAtLeast = Duration.ofSeconds(2);
        Duration lease = Duration.ofSeconds(5);
        Map<String, Long> ranAt = new ConcurrentHashMap<>();

        String item = newKey("min-hold-item");
        assertThat(await(registry().obtain(item).withHoldAtLeast(holdAtLeast)
                .acquireAndExecute(Duration.ZERO, lease, ranAt(ranAt, item, Uni.createFrom().item("done")))))
                .isEqualTo("done");

        String failure = newKey("min-hold-failure");
        IllegalStateException declined = new IllegalStateException("declined");
        assertThatThrownBy(() -> await(registry().obtain(failure).withHoldAtLeast(holdAtLeast)
                .acquireAndExecute(Duration.ZERO, lease, ranAt(ranAt, failure, Uni.createFrom().failure(declined)))))
                .isSameAs(declined);

        String cancelled = newKey("min-hold-cancelled");
        Cancellable running = registry().obtain(cancelled).withHoldAtLeast(holdAtLeast)
                .acquireAndExecute(Duration.ZERO, lease, ranAt(ranAt, cancelled, Uni.createFrom().nothing()))
                .subscribe().with(ignored -> {
                });
        eventually(() -> ranAt.containsKey(cancelled));
        running.cancel();

        String stream = newKey("min-hold-stream");
        assertThat(registry().obtain(stream).withHoldAtLeast(holdAtLeast)
                .acquireAndExecuteMany(Duration.ZERO, lease, Multi.createFrom().range(0, 3)
                        .onSubscription().invoke(() -> ranAt.put(stream, System.nanoTime())))
                .collect().asList().await().atMost(TIMEOUT)).containsExactly(0, 1, 2);

        String streamCancelled = newKey("min-hold-stream-cancelled");
        assertThat(registry().obtain(streamCancelled).withHoldAtLeast(holdAtLeast)
                .acquireAndExecuteMany(Duration.ZERO, lease, Multi.createFrom().ticks().every(Duration.ofMillis(10))
                        .onSubscription().invoke(() -> ranAt.put(streamCancelled, System.nanoTime())))
                .select().first().collect().asList().await().atMost(TIMEOUT)).hasSize(1);

        String returned = newKey("min-hold-blocking-return");
        assertThat(registry().obtainBlocking(returned).withHoldAtLeast(holdAtLeast)
                .acquireAndExecute(Duration.ZERO, lease, () -> ranAt.put(returned, System.nanoTime()))).isNull();

        String thrown = newKey("min-hold-blocking-throw");
        assertThatThrownBy(() -> registry().obtainBlocking(thrown).withHoldAtLeast(holdAtLeast)
                .acquireAndExecute(Duration.ZERO, lease, () -> {
                    ranAt.put(thrown, System.nanoTime());
                    throw declined;
                })).isSameAs(declined);

        String released = newKey("min-hold-release");
        ReactiveDistributedLock renewing = registry().obtain(released).withHoldAtLeast(holdAtLeast)
                .withLeaseRenewal(true);
        assertThat(await(renewing.acquire(Duration.ZERO, Duration.ofMillis(2100)))).isTrue();
        ranAt.put(released, System.nanoTime());
        assertThat(await(renewing.release())).as("its hold ended").isTrue();
        assertThat(renewing.fencingToken()).isEmpty();
        assertThat(await(renewing.release())).as("nothing left to release").isFalse();

        List<Map.Entry<String, Long>> sections = ranAt.entrySet().stream().sorted(Map.Entry.comparingByValue())
                .toList();
        assertThat(sections).hasSize(8);
        for (Map.Entry<String, Long> section : sections) {
            sleepUntil(section.getValue() + Duration.ofMillis(500).toNanos());
            assertThat(await(registry().obtain(section.getKey()).acquireOnce()))
                    .as("0.5 s after the section on %s", section.getKey()).isFalse();
        }
        for (Map.Entry<String, Long> section : sections) {
            sleepUntil(section.getValue() + Duration.ofMillis(2500).toNanos());
            ReactiveDistributedLock next = registry().obtain(section.getKey());
            assertThat(await(next.acquireOnce())).as("2.5 s after the section on %s", section.getKey()).isTrue();
            assertThat(await(next.release())).isTrue();
        }
    }

    @Test
    void aMinimumHoldLivesInTheStoreSoAHolderThatDiesDuringItFreesTheLockWhenItEndsNotAtItsLease() {
        String key = newKey("min-hold-crash");
        DefaultLockRegistry dying = startInstance(new BackoffWaitStrategy(vertx()));
        ReactiveDistributedLock holder = dying.obtain(key).withHoldAtLeast(Duration.ofSeconds(2))
                .withLeaseRenewal(true);
        AtomicLong ranAt = new AtomicLong();
        await(holder.acquireAndExecute(Duration.ZERO, Duration.ofSeconds(10),
                Uni.createFrom().item(() -> ranAt.getAndSet(System.nanoTime()))));

        dying.close();

        sleepUntil(ranAt.get() + Duration.ofMillis(500).toNanos());
        assertThat(await(registry().obtain(key).acquireOnce())).as("held during its minimum hold").isFalse();
        sleepUntil(ranAt.get() + Duration.ofMillis(2500).toNanos());
        assertThat(await(registry().obtain(key).acquireOnce()))
                .as("free when its minimum hold ends, 7.5 s before its lease would").isTrue();
    }

    @Test
    void aMinimumHoldLongerThanTheLeaseOrNegativeIsRefusedBeforeReachingTheStore() {
        String key = newKey("min-hold-refused");
        long before = storeSize();
        ReactiveDistributedLock lock = registry().obtain(key).withHoldAtLeast(Duration.ofSeconds(2));
        Uni<String> action = Uni.createFrom().item("never");

        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease")
                .hasMessageContaining("holdAtLeast");
        assertThatThrownBy(() -> lock.acquireAndExecute(Duration.ZERO, Duration.ofMillis(1999), action))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdAtLeast");
        assertThatThrownBy(() -> lock.acquireAndExecuteMany(Duration.ZERO, Duration.ofSeconds(1),
                Multi.createFrom().item(1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holdAtLeast");
        assertThatThrownBy(() -> lock.toBlocking().acquireAndExecute(Duration.ZERO, Duration.ofSeconds(1),
                () -> 1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdAtLeast");
        assertThatThrownBy(() -> lock.withHoldAtLeast(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holdAtLeast");
        assertThatThrownBy(() -> lock.withHoldAtLeast(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("holdAtLeast");

        assertThat(storeSize()).isEqualTo(before);
        assertThat(await(lock.withHoldAtLeast(Duration.ZERO).acquire(Duration.ZERO, Duration.ofSeconds(1))))
                .isTrue();
        assertThat(await(lock.release())).isTrue();
        assertThat(await(registry().obtain(key).acquireOnce())).as("no minimum hold: freed at once").isTrue();
    }

    @Test
    void aHolderWhoseRenewalFindsTheLockLostIsToldAndItsActionCancelled() throws InterruptedException {
        String key = newKey("renewal-lost");
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger cancelled = new AtomicInteger();
        Uni<String> endless = Uni.createFrom().<String> nothing()
                .onSubscription().invoke(started::countDown)
                .onCancellation().invoke(cancelled::incrementAndGet);
        ReactiveDistributedLock holder = registry().obtain(key).withLeaseRenewal(true);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch failed = new CountDownLatch(1);
        holder.acquireAndExecute(Duration.ZERO, SHORT_LEASE, endless).subscribe().with(ignored -> {
        }, error -> {
            failure.set(error);
            failed.countDown();
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        deleteLock(key);

        assertThat(failed.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(failure.get()).isInstanceOf(LockExpiredException.class).hasMessageContaining(key);
        assertThat(cancelled.get()).isEqualTo(1);
        assertThat(holder.fencingToken()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = { "unicode-日本語-🔒", "{braces}", "}leading", "trailing{", "a}b{c", "{}", "lua'\"\\--[[x]]",
            "KEYS[1]", "$dollar", "$where", "dotted.name.key", ".leading-dot", "key with spaces", "line\nbreak",
            "tab\tkey", "%s%d%n", "*?[glob]", "lock:released", "🔒" })
    void hostileButValidKeysLockExactlyLikeAnyOther(String hostile) {
        String key = hostile + "-" + UUID.randomUUID();
        ReactiveDistributedLock lock = registry().obtain(key);
        ReactiveDistributedLock other = registry().obtain(key);
        ReactiveDistributedLock neighbour = registry().obtain(hostile + "-neighbour-" + UUID.randomUUID());

        assertThat(await(lock.acquireOnce())).isTrue();
        assertThat(await(other.acquireOnce())).isFalse();
        assertThat(await(neighbour.acquireOnce())).as("a different key is a different lock").isTrue();
        assertThat(await(lock.isAcquired())).isTrue();
        assertThat(await(lock.release())).isTrue();
        assertThat(await(other.acquireOnce())).isTrue();
        assertThat(await(other.release())).isTrue();
        assertThat(await(neighbour.release())).isTrue();
    }

    @Test
    void theLongestKeyAllowedWorksAndOneMoreCharacterIsRefused() {
        String longest = UUID.randomUUID() + "x".repeat(LockRegistry.MAX_KEY_LENGTH - 36);
        ReactiveDistributedLock lock = registry().obtain(longest);
        assertThat(await(lock.acquireOnce())).isTrue();
        assertThat(await(lock.release())).isTrue();
        assertThatThrownBy(() -> registry().obtain(longest + "x")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most " + LockRegistry.MAX_KEY_LENGTH);
    }

    @Test
    void hugeDurationsAreEitherServedOrRefusedClearly() {
        ReactiveDistributedLock lock = registry().obtain(newKey("huge"));
        assertThat(await(lock.acquire(Duration.ofDays(365_000)))).as("a wait too long to count is served")
                .isTrue();
        assertThat(await(lock.release())).isTrue();
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThat(lock.fencingToken()).isEmpty();
    }

    @Test
    void anActionThatFailsWhileBeingBuiltReleasesTheLockAndItsFailureReachesTheCaller() {
        String key = newKey("throws-early");
        IllegalStateException failure = new IllegalStateException("no connection for the payment");
        Uni<String> action = Uni.createFrom().deferred(() -> {
            throw failure;
        });

        assertThatThrownBy(() -> await(registry().obtain(key).acquireAndExecute(action))).isSameAs(failure);
        assertThat(await(registry().obtain(key).acquireOnce())).isTrue();
    }

    @Test
    void aLockAcquiredForeverOutlivesLeasesUntilItsHolderReleasesIt() {
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
    void aReentrantHandleEntersAgainAtOnceAndFreesTheLockAtItsLastRelease() {
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
    void aReentrantHandleRunsANestedSectionInsideItsOuterOne() {
        String key = newKey("reentrant-nested");
        ReactiveDistributedLock reentrant = registry().obtain(key, LockType.REENTRANT);
        Uni<String> nested = reentrant.acquireAndExecute(Duration.ZERO,
                reentrant.acquireAndExecute(Duration.ZERO, Uni.createFrom().item("inner")).map(inner -> "outer+" + inner));

        assertThat(await(nested)).isEqualTo("outer+inner");
        assertThat(reentrant.fencingToken()).isEmpty();
        ReactiveDistributedLock other = registry().obtain(key);
        assertThat(await(other.acquireOnce())).isTrue();
        assertThat(await(other.release())).isTrue();
    }

    @Test
    void aReentryFindsALostLockAndAcquiresItAfresh() {
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
    void aReentrantLockAcquiredForeverStaysForeverWhenEnteredAgain() {
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
    void anOverridingHandleTakesTheLockFromItsHolderWithAGreaterToken() {
        String key = newKey("overriding");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquireForever())).isTrue();
        ReactiveDistributedLock admin = registry().obtain(key, LockType.OVERRIDING);

        assertThat(await(admin.acquireOnce())).isTrue();
        assertThat(admin.fencingToken().getAsLong()).isGreaterThan(holder.fencingToken().getAsLong());
        assertThat(await(admin.isAcquired())).isTrue();
        assertThat(await(holder.isAcquired())).isFalse();
        assertThatThrownBy(() -> await(holder.release())).isInstanceOf(LockExpiredException.class);

        assertThat(await(admin.release())).isTrue();
        ReactiveDistributedLock next = registry().obtain(key);
        assertThat(await(next.acquireOnce())).isTrue();
        assertThat(await(next.release())).isTrue();
    }

    @Test
    void anOverridingReleaseFreesTheLockWhoeverHoldsIt() {
        String key = newKey("overriding-release");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquireForever())).isTrue();
        ReactiveDistributedLock admin = registry().obtain(key, LockType.OVERRIDING);

        assertThat(await(admin.release())).isTrue();
        assertThat(await(holder.isAcquired())).isFalse();
        assertThat(await(admin.release())).as("nobody holds it now").isFalse();
        ReactiveDistributedLock next = registry().obtain(key);
        assertThat(await(next.acquireOnce())).isTrue();
        assertThat(await(next.release())).isTrue();
    }

    @Test
    void anOverridingReleaseHandsTheLockToAWaiter() {
        String key = newKey("overriding-waiter");
        ReactiveDistributedLock holder = registry().obtain(key);
        assertThat(await(holder.acquireForever())).isTrue();
        ReactiveDistributedLock waiter = registry().obtain(key);
        Uni<Boolean> waiting = waiter.acquire(Duration.ofSeconds(20)).memoize().indefinitely();
        waiting.subscribe().with(ignored -> {
        });

        assertThat(await(registry().obtain(key, LockType.OVERRIDING).release())).isTrue();
        assertThat(await(waiting)).isTrue();
        assertThat(await(waiter.release())).isTrue();
    }

    @Test
    void threeInstancesMigratingAtOnceApplyEachChangeSetOnceAndInOrder() {
        String name = newKey("migration");
        List<String> applied = Collections.synchronizedList(new ArrayList<>());
        List<ChangeSet> changeSets = Stream.of("001-create", "002-backfill", "003-index")
                .map(id -> ChangeSet.of(id, () -> Uni.createFrom().voidItem().onItem().delayIt()
                        .by(Duration.ofMillis(50)).invoke(() -> applied.add(id))))
                .toList();
        List<DefaultLockRegistry> instances = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                instances.add(startInstance(new BackoffWaitStrategy(vertx())));
            }
            List<Uni<MigrationReport>> runs = instances.stream()
                    .map(instance -> new StoreLockMigrator(instance).migrate(name, Duration.ofSeconds(30), changeSets))
                    .toList();
            List<MigrationReport> reports = await(Uni.join().all(runs).andFailFast());

            assertThat(applied).containsExactly("001-create", "002-backfill", "003-index");
            assertThat(reports).filteredOn(report -> !report.applied().isEmpty()).singleElement()
                    .satisfies(first -> assertThat(first.applied())
                            .containsExactly("001-create", "002-backfill", "003-index"));
            assertThat(reports).filteredOn(report -> report.applied().isEmpty()).hasSize(2)
                    .allSatisfy(later -> assertThat(later.alreadyApplied())
                            .containsExactly("001-create", "002-backfill", "003-index"));
        } finally {
            instances.forEach(DefaultLockRegistry::close);
        }
    }

    @Test
    void aFailedChangeSetStopsTheRunAndIsRetriedOnTheNextStart() {
        String name = newKey("migration-failure");
        List<String> applied = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger backfillAttempts = new AtomicInteger();
        List<ChangeSet> changeSets = List.of(
                ChangeSet.of("001-create", () -> Uni.createFrom().voidItem().invoke(() -> applied.add("001-create"))),
                ChangeSet.of("002-backfill", () -> {
                    if (backfillAttempts.incrementAndGet() == 1) {
                        throw new IllegalStateException("disk full");
                    }
                    return Uni.createFrom().voidItem().invoke(() -> applied.add("002-backfill"));
                }),
                ChangeSet.of("003-index", () -> Uni.createFrom().voidItem().invoke(() -> applied.add("003-index"))));
        DefaultLockRegistry firstStart = startInstance(new BackoffWaitStrategy(vertx()));
        DefaultLockRegistry nextStart = startInstance(new BackoffWaitStrategy(vertx()));
        try {
            assertThatThrownBy(() -> await(new StoreLockMigrator(firstStart).migrate(name, changeSets)))
                    .isInstanceOf(MigrationFailedException.class)
                    .hasMessageContaining("'002-backfill'").hasMessageContaining("disk full")
                    .satisfies(failure -> assertThat(((MigrationFailedException) failure).getChangeSetId())
                            .isEqualTo("002-backfill"));
            assertThat(applied).containsExactly("001-create");

            MigrationReport retry = await(new StoreLockMigrator(nextStart).migrate(name, Duration.ZERO, changeSets));
            assertThat(retry.alreadyApplied()).containsExactly("001-create");
            assertThat(retry.applied()).containsExactly("002-backfill", "003-index");
            assertThat(applied).containsExactly("001-create", "002-backfill", "003-index");
        } finally {
            firstStart.close();
            nextStart.close();
        }
    }

    @Test
    void aMigrationWithInvalidChangeSetsFailsBeforeReachingTheStore() {
        long before = storeSize();
        DefaultLockRegistry instance = startInstance(new BackoffWaitStrategy(vertx()));
        StoreLockMigrator migrator = new StoreLockMigrator(instance);
        ChangeSet step = ChangeSet.of("001", () -> Uni.createFrom().voidItem());
        try {
            assertThatThrownBy(() -> migrator.migrate("m", List.of(step, ChangeSet.of("001", () -> null))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'001' appears twice");
            assertThatThrownBy(() -> migrator.migrate(" ", List.of(step)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("migration name");
            assertThatThrownBy(() -> migrator.migrate("m", null)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("change sets");
            assertThatThrownBy(() -> migrator.migrate("m", Duration.ofSeconds(-1), List.of(step)))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wait");
            assertThatThrownBy(() -> migrator.migrate("m", List.of(ChangeSet.of("x".repeat(600), () -> null))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("too long");
            assertThatThrownBy(() -> ChangeSet.of("", () -> null)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("id");
        } finally {
            instance.close();
        }
        assertThat(storeSize()).isEqualTo(before);
    }

    @Test
    void badInputFailsFastNamingTheArgumentAndReachesNothing() {
        long before = storeSize();
        ReactiveDistributedLock lock = registry().obtain(newKey("bad-input"));
        Uni<String> action = Uni.createFrom().item("x");

        assertThatThrownBy(() -> registry().obtain(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> registry().obtain("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> registry().obtain(" \t\n")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> registry().obtain("k".repeat(LockRegistry.MAX_KEY_LENGTH + 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key");
        assertThatThrownBy(() -> registry().obtainBlocking(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key");
        assertThatThrownBy(() -> registry().obtain("typed", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("type");
        assertThatThrownBy(() -> registry().obtain(null, LockType.OVERRIDING))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key");

        assertThatThrownBy(() -> lock.acquire(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wait");
        assertThatThrownBy(() -> lock.acquire(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wait");
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO, Duration.ofNanos(10)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquireAndExecute(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("action");
        assertThatThrownBy(() -> lock.acquireAndExecute(Duration.ZERO, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("action");
        assertThatThrownBy(() -> lock.acquireAndExecute(null, action)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wait");
        assertThatThrownBy(() -> lock.acquireAndExecute(Duration.ofMillis(-1), action))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wait");
        assertThatThrownBy(() -> lock.acquireAndExecute(Duration.ZERO, Duration.ZERO, action))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquireAndExecuteMany(Duration.ZERO, null, Multi.createFrom().item(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.toBlocking().acquireAndExecute(Duration.ZERO, Duration.ofDays(-1), () -> 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lease");
        assertThatThrownBy(() -> lock.acquireAndExecuteMany(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("action");
        assertThatThrownBy(() -> lock.acquireAndExecuteMany(Duration.ofMillis(-1), Multi.createFrom().item(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("wait");
        assertThatThrownBy(() -> lock.toBlocking().acquireAndExecute(null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("action");

        assertThat(storeSize()).isEqualTo(before);
        assertThat(lock.fencingToken()).isEmpty();
    }

    private static <T> Uni<T> ranAt(Map<String, Long> ranAt, String key, Uni<T> section) {
        return section.onSubscription().invoke(() -> ranAt.put(key, System.nanoTime()));
    }

    private static void sleepUntil(long nanoTime) {
        long remaining = nanoTime - System.nanoTime();
        if (remaining > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(remaining);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /**
     * Waits up to five seconds for a condition that an asynchronous step (such as a release after a cancellation)
     * makes true, and fails if it does not.
     */
    protected static void eventually(BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition still false after 5 s").isLessThan(deadline);
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** A guarded action that signals its start and ends when told to. */
    private static final class Section {

        final CountDownLatch started = new CountDownLatch(1);
        private final CompletableFuture<Void> end = new CompletableFuture<>();

        Uni<String> run(String result) {
            return Uni.createFrom().completionStage(end).onSubscription().invoke(started::countDown)
                    .replaceWith(result);
        }

        void finish() {
            end.complete(null);
        }

        static Section firstToStart(Section a, Section b) throws InterruptedException {
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                if (a.started.await(10, TimeUnit.MILLISECONDS)) {
                    return a;
                }
                if (b.started.getCount() == 0) {
                    return b;
                }
            }
            throw new AssertionError("neither section started within " + TIMEOUT);
        }
    }

    /** Counts how many guarded actions run at once. */
    private static final class Overlap {

        private final AtomicInteger running = new AtomicInteger();
        private final AtomicInteger max = new AtomicInteger();

        <T> Uni<T> guard(Uni<T> action) {
            return action.onSubscription().invoke(() -> max.accumulateAndGet(running.incrementAndGet(), Math::max))
                    .onTermination().invoke(running::decrementAndGet);
        }

        int max() {
            return max.get();
        }
    }
}
