package io.quarkiverse.lock;

import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Retention;
import java.lang.annotation.Target;

import jakarta.enterprise.util.Nonbinding;
import jakarta.interceptor.InterceptorBinding;

/**
 * Runs the annotated CDI bean method only while holding a distributed lock, and releases the lock when the call ends.
 *
 * <pre>
 * &#64;Locked(key = "order-{orderId}", waitTime = "5s")
 * Uni&lt;Receipt&gt; pay(String orderId) { ... }
 *
 * &#64;Scheduled(every = "1h")
 * &#64;Locked(waitTime = "0s", whenBusy = Locked.WhenBusy.SKIP, holdAtLeast = "10m", expireAfter = "30m")
 * void buildReport() { ... } // one run per hour across instances, even when they fire minutes apart
 * </pre>
 *
 * A scheduled job needs {@link #holdAtLeast()} to run once per period across instances: without it, the lock is free
 * again as soon as the fastest instance's run ends, so an instance whose schedule fires a little later (it started
 * later, its clock differs) finds it free and runs the job again in the same period.
 *
 * <ul>
 * <li>{@code Uni<T>}: the lock is taken on subscription (nothing happens before) and released on the item, a failure
 * or a cancellation;</li>
 * <li>{@code Multi<T>}: held from subscription until completion, failure or cancellation;</li>
 * <li>{@code CompletionStage<T>}: taken when the method is called, released when the stage completes;</li>
 * <li>any other return type, {@code void} included, is a blocking method: it must run on a worker thread, and fails
 * with an {@link IllegalStateException} when called on a Vert.x event-loop thread instead of blocking it.</li>
 * </ul>
 * When the lock is not acquired within the wait, the call fails with {@link CannotAcquireLockException} naming the
 * key, or, with {@link WhenBusy#SKIP}, completes without running the method ({@code null}, an empty {@code Multi}).
 * When the store fails the acquisition, the call fails with {@link LockException}, except for a method that is also
 * {@code @Scheduled}: that firing completes without running the method, whatever {@link #whenBusy()} says (logged at
 * debug level, counted by the {@code quarkus.lock.skipped} meter with {@code reason=store_failure}), so that a store
 * outage, logged once by the registry, does not make the scheduler log an error at every firing.
 * <p>
 * The locks are not reentrant. A {@code @Locked} method whose body calls another {@code @Locked} method on the same
 * key (directly, or while building its pipeline) gets an {@link IllegalStateException} for that call instead of
 * waiting for itself. A nested call that a pipeline makes later, on another thread, cannot be told apart from a
 * concurrent one: it waits like any contender and fails with {@link CannotAcquireLockException} when its wait runs
 * out, so it never hangs. Malformed templates,
 * unknown parameter names, durations that do not parse, a negative {@code waitTime} or {@code holdAtLeast}, a zero
 * {@code expireAfter}, a {@code holdAtLeast} longer than {@code expireAfter}, private or static methods, unsupported
 * return types and {@code @Locked} on a class (it is for methods; the class target exists for the interceptor) fail the
 * build with a message naming the method or class; durations given as config expressions (or left to the configured
 * default) are checked the same way at startup.
 */
@InterceptorBinding
@Retention(RUNTIME)
@Target({ METHOD, TYPE })
public @interface Locked {

    /**
     * The lock key: a template over the method's parameters by name, such as {@code "order-{orderId}"}, where each
     * {@code {name}} is replaced by {@code String.valueOf} of that argument. Empty (the default): the declaring class
     * and method name, followed by the values of the parameters annotated {@link LockKey}, if any.
     *
     * @return the key template
     */
    @Nonbinding
    String key() default "";

    /**
     * How long to wait for the lock, as a duration ({@code "5s"}, {@code "500ms"}, {@code "PT1M"}) or a config
     * expression ({@code "${app.lock.wait:5s}"}). {@code "0s"} means one attempt. Empty: {@code quarkus.lock.wait-timeout}.
     *
     * @return the wait
     */
    @Nonbinding
    String waitTime() default "";

    /**
     * The lease of the lock, as a duration or a config expression. Empty: {@code quarkus.lock.expire-after}.
     *
     * @return the lease
     */
    @Nonbinding
    String expireAfter() default "";

    /**
     * How long after its acquisition the lock stays held, however soon the call ends (with a result, a failure, a
     * return, a throw or a cancellation), as a duration or a config expression: the release then shortens the lease in
     * the store to what remains of that time, so the store frees the lock by itself then, even if this instance
     * crashes meanwhile. Empty or {@code "0s"} (the default): the lock is freed when the call ends. ShedLock calls it
     * {@code lockAtLeastFor}; see {@link ReactiveDistributedLock#withHoldAtLeast(java.time.Duration)}.
     * <p>
     * For a scheduled job with {@link WhenBusy#SKIP}, choose it longer than the largest offset between the instances'
     * firings (start times, clock skew) and shorter than the period minus that offset, so that the late instances of a
     * period find the lock held while the first instance of the next period finds it free; and no longer than the
     * lease ({@link #expireAfter()}, or {@code quarkus.lock.expire-after}): a longer one fails the build (or startup,
     * for a config expression or the configured default lease).
     *
     * @return the minimum hold
     */
    @Nonbinding
    String holdAtLeast() default "";

    /**
     * Whether the lease is renewed while the method runs, so a call longer than the lease keeps the lock; a renewal
     * that finds the lock lost fails the call with {@link LockExpiredException}. See
     * {@link ReactiveDistributedLock#withLeaseRenewal(boolean)}.
     *
     * @return {@link LeaseRenewal#CONFIGURED} (the default: {@code quarkus.lock.renew-lease}), {@link LeaseRenewal#ON}
     *         or {@link LeaseRenewal#OFF}
     */
    @Nonbinding
    LeaseRenewal leaseRenewal() default LeaseRenewal.CONFIGURED;

    /**
     * What a call does when the lock is not acquired within the wait.
     *
     * @return {@link WhenBusy#FAIL} (the default) or {@link WhenBusy#SKIP}
     */
    @Nonbinding
    WhenBusy whenBusy() default WhenBusy.FAIL;

    /**
     * Whether a call renews its lease while it runs.
     */
    enum LeaseRenewal {
        /** As {@code quarkus.lock.renew-lease} says. */
        CONFIGURED,
        /** Renew. */
        ON,
        /** Do not renew: the lock frees when the lease runs out, even if the call still runs. */
        OFF
    }

    /**
     * What a call does when another owner holds the lock for the whole wait.
     */
    enum WhenBusy {
        /** The call fails with {@link CannotAcquireLockException} naming the key. */
        FAIL,
        /**
         * The method is not run and the call completes empty: {@code null} (a {@code Uni} or {@code CompletionStage}
         * of {@code null}), an empty {@code Multi}, or nothing for {@code void}. For scheduled jobs that one instance
         * should run per period (with {@link Locked#holdAtLeast()}). A skipped call is logged at debug level with its
         * key and counted by the {@code quarkus.lock.skipped} meter. Not allowed on methods returning a primitive.
         */
        SKIP
    }
}
