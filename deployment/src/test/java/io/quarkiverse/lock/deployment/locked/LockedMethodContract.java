package io.quarkiverse.lock.deployment.locked;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * What {@code @Locked} does for every return type. Each shape's test class binds it to a bean whose methods have that
 * shape, seen through a {@link Uni} adapter (a blocking call runs on a thread of its own, and its cancellation
 * interrupts that thread).
 */
abstract class LockedMethodContract {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Inject
    LockRegistry registry;

    static QuarkusUnitTest app(Class<?>... classes) {
        return new QuarkusUnitTest()
                .withApplicationRoot(jar -> jar.addClasses(classes).addClasses(LockedMethodContract.class,
                        Overlap.class, ContractJobs.class, BlockingCall.class))
                .overrideConfigKey("quarkus.devservices.enabled", "false")
                .overrideConfigKey("quarkus.lock.provider", "in-memory");
    }

    /** {@code @Locked(key = "job-{id}")}: records its overlap, works for {@code duration}, emits {@code id}. */
    abstract Uni<String> work(String id, Duration duration);

    /** {@code @Locked(key = "job-{id}")}: fails with {@code IllegalStateException("failed " + id)}. */
    abstract Uni<String> failing(String id);

    /** {@code @Locked(key = "job-{id}")}: counts down {@code started}, then never ends unless cancelled. */
    abstract Uni<String> endless(String id, CountDownLatch started);

    /** {@code @Locked(key = "job-{id}", waitTime = "100ms")}: emits {@code id}. */
    abstract Uni<String> impatient(String id);

    /** {@code @Locked(key = "job-{id}", waitTime = "0s", whenBusy = SKIP)}: emits {@code id}. */
    abstract Uni<String> skipping(String id);

    /** {@code @Locked(key = "job-{id}", waitTime = "0s", whenBusy = SKIP, holdAtLeast = "2s")}: emits {@code id}. */
    abstract Uni<String> holdingAtLeast(String id);

    /**
     * {@code @Locked(key = "job-{id}", waitTime = "0s", whenBusy = SKIP, holdAtLeast = "2s")}: fails with
     * {@code IllegalStateException("failed " + id)}.
     */
    abstract Uni<String> failingHoldingAtLeast(String id);

    /** The overlap recorder of {@link #work}. */
    abstract Overlap overlap();

    private static String newId() {
        return UUID.randomUUID().toString();
    }

    private ReactiveDistributedLock lockOf(String id) {
        return registry.obtain("job-" + id);
    }

    /**
     * Checks that a call of a lazy shape (a {@code Uni} or {@code Multi}) neither runs the method nor takes the lock
     * until subscription.
     *
     * @param invocations how many times the bean's methods ran
     * @param lazyCall calls {@code work("lazy", Duration.ZERO)}, without subscribing
     */
    void assertNothingHappensBeforeSubscription(IntSupplier invocations, Supplier<?> lazyCall) {
        int before = invocations.getAsInt();
        Object call = lazyCall.get();

        assertThat(invocations.getAsInt()).isEqualTo(before);
        assertThat(registry.obtain("job-lazy").acquireOnce().await().atMost(TIMEOUT)).isTrue();
        assertThat(registry.obtain("job-lazy").release().await().atMost(TIMEOUT)).isFalse();
        assertThat(call).isNotNull();
    }

    @Test
    void concurrentCallsWithOneKeyRunOneAtATime() {
        String id = newId();
        overlap().reset();
        List<Uni<String>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(work(id, Duration.ofMillis(150)));
        }
        assertThat(Uni.join().all(calls).andFailFast().await().atMost(TIMEOUT)).containsExactly(id, id, id);
        assertThat(overlap().max()).isEqualTo(1);
    }

    @Test
    void callsWithDifferentKeysRunInParallel() {
        overlap().reset();
        List<Uni<String>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(work(newId(), Duration.ofMillis(800)));
        }
        assertThat(Uni.join().all(calls).andFailFast().await().atMost(TIMEOUT)).hasSize(3);
        assertThat(overlap().max()).isEqualTo(3);
    }

    @Test
    void theLockIsReleasedWhenTheMethodFails() {
        String id = newId();
        assertThatThrownBy(() -> failing(id).await().atMost(TIMEOUT))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("failed " + id);
        assertThat(lockOf(id).acquireOnce().await().atMost(TIMEOUT)).isTrue();
    }

    @Test
    void theLockIsHeldWhileTheMethodRunsAndReleasedWhenTheCallIsCancelled() throws InterruptedException {
        String id = newId();
        CountDownLatch started = new CountDownLatch(1);
        Cancellable call = endless(id, started).subscribe().with(ignored -> {
        }, ignored -> {
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(lockOf(id).acquireOnce().await().atMost(TIMEOUT)).isFalse();

        call.cancel();

        ReactiveDistributedLock probe = lockOf(id);
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        boolean acquired = false;
        while (!acquired && System.nanoTime() < deadline) {
            acquired = probe.acquireOnce().await().atMost(TIMEOUT);
            Thread.sleep(acquired ? 0 : 20);
        }
        assertThat(acquired).as("the lock is free soon after the cancellation").isTrue();
    }

    @Test
    void aCallFailsNamingTheKeyWhenTheWaitRunsOut() {
        String id = newId();
        assertThat(lockOf(id).acquireOnce().await().atMost(TIMEOUT)).isTrue();

        assertThatThrownBy(() -> impatient(id).await().atMost(TIMEOUT))
                .isInstanceOf(CannotAcquireLockException.class)
                .hasMessageContaining("job-" + id);
    }

    @Test
    void aCallThatHoldsTheLockAtLeastTwoSecondsMakesTheCallsOfTheNextTwoSecondsSkip() throws InterruptedException {
        String succeeded = newId();
        String failed = newId();
        long start = System.nanoTime();
        assertThat(holdingAtLeast(succeeded).await().atMost(TIMEOUT)).isEqualTo(succeeded);
        assertThatThrownBy(() -> failingHoldingAtLeast(failed).await().atMost(TIMEOUT))
                .isInstanceOf(IllegalStateException.class).hasMessage("failed " + failed);

        sleepUntil(start + Duration.ofMillis(500).toNanos());
        assertThat(holdingAtLeast(succeeded).await().atMost(TIMEOUT)).as("0.5 s after a call that returned")
                .isNull();
        assertThat(holdingAtLeast(failed).await().atMost(TIMEOUT)).as("0.5 s after a call that failed").isNull();

        sleepUntil(start + Duration.ofMillis(2500).toNanos());
        assertThat(holdingAtLeast(succeeded).await().atMost(TIMEOUT)).as("2.5 s after").isEqualTo(succeeded);
        assertThat(holdingAtLeast(failed).await().atMost(TIMEOUT)).as("2.5 s after").isEqualTo(failed);
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long remaining = nanoTime - System.nanoTime();
        if (remaining > 0) {
            TimeUnit.NANOSECONDS.sleep(remaining);
        }
    }

    @Test
    void aSkippingCallCompletesEmptyWithoutRunningWhenTheLockIsBusy() {
        String id = newId();
        assertThat(skipping(id).await().atMost(TIMEOUT)).isEqualTo(id);
        ReactiveDistributedLock holder = lockOf(id);
        assertThat(holder.acquireOnce().await().atMost(TIMEOUT)).isTrue();

        assertThat(skipping(id).await().atMost(TIMEOUT)).isNull();

        assertThat(holder.release().await().atMost(TIMEOUT)).isTrue();
        assertThat(skipping(id).await().atMost(TIMEOUT)).isEqualTo(id);
    }
}
