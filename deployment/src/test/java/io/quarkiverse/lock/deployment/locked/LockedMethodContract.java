package io.quarkiverse.lock.deployment.locked;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.deployment.LockTestApplication;
import io.quarkiverse.lock.deployment.OnEventLoop;
import io.quarkiverse.lock.tck.Overlap;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * What {@code @Locked} does for every return type. Each shape's test class binds it to a bean whose methods (those
 * below, by name) return that shape, {@code R}, seen through one {@link Uni} adapter (a blocking call runs on a thread
 * of its own, and its cancellation interrupts that thread).
 *
 * @param <R> what the bean's methods return ({@code Void} for {@code void} methods)
 */
abstract class LockedMethodContract<R> {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Inject
    LockRegistry registry;

    /** The application of a shape's test: its bean, on the in-memory store. */
    static QuarkusUnitTest app(Class<? extends ContractJobs> jobs) {
        return LockTestApplication.inMemory(jobs, LockedMethodContract.class, LazyLockedMethodContract.class,
                ContractJobs.class, Overlap.class, BlockingCall.class, OnEventLoop.class);
    }

    /** The shape's bean: the one {@link ContractJobs} of the application. */
    @Inject
    ContractJobs jobs;

    /**
     * Sees a call of the shape's bean as a {@link Uni} of what it emits (a skipped call emits {@code null}).
     *
     * @param id the id the call locks
     * @param call calls the bean's method, answering what it returns and throwing what it throws
     */
    abstract Uni<String> adapt(String id, Supplier<R> call);

    /** {@code @Locked(key = "job-{id}")}: records its overlap, works for {@code duration}, emits {@code id}. */
    Uni<String> work(String id, Duration duration) {
        return call("work", id, duration);
    }

    /** {@code @Locked(key = "job-{id}")}: fails with {@code IllegalStateException("failed " + id)}. */
    Uni<String> failing(String id) {
        return call("failing", id);
    }

    /** {@code @Locked(key = "job-{id}")}: counts down {@code started}, then never ends unless cancelled. */
    Uni<String> endless(String id, CountDownLatch started) {
        return call("endless", id, started);
    }

    /** {@code @Locked(key = "job-{id}", waitTime = "100ms")}: emits {@code id}. */
    Uni<String> impatient(String id) {
        return call("impatient", id);
    }

    /** {@code @Locked(key = "job-{id}", waitTime = "0s", whenBusy = SKIP)}: emits {@code id}. */
    Uni<String> skipping(String id) {
        return call("skipping", id);
    }

    /** {@code @Locked(key = "job-{id}", waitTime = "0s", whenBusy = SKIP, holdAtLeast = "2s")}: emits {@code id}. */
    Uni<String> holdingAtLeast(String id) {
        return call("holdingAtLeast", id);
    }

    /**
     * {@code @Locked(key = "job-{id}", waitTime = "0s", whenBusy = SKIP, holdAtLeast = "2s")}: fails with
     * {@code IllegalStateException("failed " + id)}.
     */
    Uni<String> failingHoldingAtLeast(String id) {
        return call("failingHoldingAtLeast", id);
    }

    private Uni<String> call(String name, String id, Object... more) {
        Object[] arguments = new Object[more.length + 1];
        arguments[0] = id;
        System.arraycopy(more, 0, arguments, 1, more.length);
        return adapt(id, invocation(name, arguments));
    }

    /**
     * Calls the bean's method of that name (every shape's bean has the methods above, with its own return type)
     * through its client proxy, so that the interceptor applies; an unchecked exception the method throws is thrown as
     * it is, a checked one (an interrupted blocking call's) wrapped.
     */
    @SuppressWarnings("unchecked")
    Supplier<R> invocation(String name, Object... arguments) {
        Method method = method(name);
        return () -> {
            try {
                return (R) method.invoke(jobs, arguments);
            } catch (InvocationTargetException e) {
                if (e.getCause() instanceof RuntimeException failure) {
                    throw failure;
                }
                throw new UndeclaredThrowableException(e.getCause());
            } catch (IllegalAccessException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private Method method(String name) {
        for (Class<?> type = jobs.getClass(); type != null; type = type.getSuperclass()) {
            for (Method method : type.getDeclaredMethods()) {
                if (method.getName().equals(name)) {
                    method.setAccessible(true);
                    return method;
                }
            }
        }
        throw new IllegalStateException(jobs.getClass() + " has no method " + name);
    }

    private static String newId() {
        return UUID.randomUUID().toString();
    }

    private ReactiveDistributedLock lockOf(String id) {
        return registry.obtain("job-" + id);
    }

    @Test
    void concurrentCallsWithOneKeyRunOneAtATime() {
        String id = newId();
        jobs.overlap().reset();
        List<Uni<String>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(work(id, Duration.ofMillis(150)));
        }
        assertThat(Uni.join().all(calls).andFailFast().await().atMost(TIMEOUT)).containsExactly(id, id, id);
        assertThat(jobs.overlap().max()).isEqualTo(1);
    }

    @Test
    void callsWithDifferentKeysRunInParallel() {
        jobs.overlap().reset();
        List<Uni<String>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(work(newId(), Duration.ofMillis(800)));
        }
        assertThat(Uni.join().all(calls).andFailFast().await().atMost(TIMEOUT)).hasSize(3);
        assertThat(jobs.overlap().max()).isEqualTo(3);
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
