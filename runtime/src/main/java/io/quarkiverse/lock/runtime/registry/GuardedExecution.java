package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockExpiredException;
import io.quarkiverse.lock.runtime.observe.LockTracer;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * Runs an action only while a handle holds its lock: acquires, runs the action, and releases the hold when the
 * action ends with an item or completion, a failure, or a cancellation, exactly once ({@link ClaimedAcquisition}); for
 * a {@code Uni}, a {@code Multi}, and the sections of the blocking view ({@link BlockingLockView}). A
 * cancelled execution releases only what it acquired itself: an entry of a reentrant hold it entered, never a hold
 * the handle had before.
 * <p>
 * Each execution has a span ({@link LockTracer#startSection}): the parent of its acquisition's span and current while
 * the action and the release run ({@link LockTracer.SectionSpan#current}), which end it once the release is done; an
 * acquisition that ends without the lock ends it ({@link ClaimedAcquisition}), and so does the release that a
 * cancellation made.
 */
final class GuardedExecution {

    private static final String CANCELLED = "its operation was cancelled";

    private GuardedExecution() {
    }

    /**
     * @return the action's item; fails with {@link CannotAcquireLockException} when the wait ran out, with
     *         {@link LockExpiredException} when the lock was found lost, or with the action's failure
     * @throws IllegalArgumentException if the wait, the lease or the action is invalid, or the lease is shorter than
     *         the handle's minimum hold
     */
    static <T> Uni<T> uni(LockHandle handle, Duration wait, Duration lease, Uni<T> action) {
        Claims claims = claims(handle, wait, lease);
        LockArguments.requireAction(action);
        return Uni.createFrom().deferred(() -> {
            ClaimedAcquisition claim = claims.get();
            return claim.flatMap(held -> held == null
                    ? Uni.createFrom().<T> failure(notAcquired(handle, wait))
                    : claim.section().current(() -> endWhenLost(held, claim.guard(action))
                            .onFailure().call(failure -> releaseAfterFailure(claim, failure))
                            .onItem().call(claim::release))
                            .onCancellation().invoke(() -> claim.releaseOnCancellation(CANCELLED)));
        });
    }

    /** As {@link #uni}, for the items of a {@code Multi}. */
    static <T> Multi<T> multi(LockHandle handle, Duration wait, Duration lease, Multi<T> action) {
        Claims claims = claims(handle, wait, lease);
        LockArguments.requireAction(action);
        return Multi.createFrom().deferred(() -> {
            ClaimedAcquisition claim = claims.get();
            return claim.onItem().transformToMulti(held -> held == null
                    ? Multi.createFrom().<T> failure(notAcquired(handle, wait))
                    : claim.section().currentMany(() -> endWhenLost(held, claim.guard(action))
                            .onFailure().call(failure -> releaseAfterFailure(claim, failure))
                            .onCompletion().call(claim::release))
                            .onCancellation().invoke(() -> claim.releaseOnCancellation(CANCELLED)));
        });
    }

    /**
     * @return makes one claimed acquisition per call, nothing reaching the store before it is subscribed
     * @throws IllegalArgumentException if the wait or the lease is invalid, or the lease is shorter than the handle's
     *         minimum hold
     */
    private static Claims claims(LockHandle handle, Duration wait, Duration lease) {
        long waitNanos = LockArguments.requireWait(wait);
        long leaseMillis = LockArguments.requireLeaseCoversHold(LockArguments.requireLease(lease),
                handle.holdAtLeastMillis());
        return new Claims(handle, waitNanos, leaseMillis);
    }

    /** Makes one claimed acquisition per call, each for a guarded section whose span it starts. */
    private record Claims(LockHandle handle, long waitNanos, long leaseMillis) implements Supplier<ClaimedAcquisition> {

        @Override
        public ClaimedAcquisition get() {
            return new ClaimedAcquisition(handle, waitNanos, leaseMillis, true);
        }
    }

    private static CannotAcquireLockException notAcquired(LockHandle handle, Duration wait) {
        return new CannotAcquireLockException(handle.getLockKey(), handle.metricsName(), wait);
    }

    /** Where the handle's blocking view gets its sections' acquisitions, each releasing only the hold it got. */
    static BlockingLockView.Sections sections(LockHandle handle) {
        return new HandleSections(handle);
    }

    /**
     * Runs the action, but fails it with {@link LockExpiredException} (and cancels it) as soon as the hold is found
     * lost: by a renewal, or replaced by a later grant to another acquisition of the same handle.
     */
    private static <T> Uni<T> endWhenLost(Hold held, Uni<T> action) {
        return Uni.createFrom().emitter(emitter -> {
            Cancellable running = action.subscribe().with(emitter::complete, emitter::fail);
            Runnable unwatch = held.whenLost(lost -> {
                running.cancel();
                emitter.fail(lost);
            });
            emitter.onTermination(() -> {
                unwatch.run();
                running.cancel();
            });
        });
    }

    private static <T> Multi<T> endWhenLost(Hold held, Multi<T> action) {
        CompletableFuture<Void> stop = new CompletableFuture<>();
        Runnable unwatch = held.whenLost(stop::completeExceptionally);
        Multi<T> lost = Multi.createFrom().completionStage(stop).onItem().transformToMultiAndConcatenate(
                ignored -> Multi.createFrom().empty());
        return Multi.createBy().merging().streams(action.onTermination().invoke(() -> {
            unwatch.run();
            stop.complete(null);
        }), lost);
    }

    /**
     * Releases the hold after the action failed: a release failure is added to the action's failure as suppressed,
     * so the caller sees the action's own failure. When the action failed because the lock was lost, the caller is
     * told at once: the release is expected to find the lock gone (or the store unreachable) and is not waited for.
     */
    private static Uni<Boolean> releaseAfterFailure(ClaimedAcquisition claim, Throwable actionFailure) {
        if (actionFailure instanceof LockExpiredException) {
            claim.releaseQuietly("its lease was found lost");
            return Uni.createFrom().item(Boolean.FALSE);
        }
        return claim.release()
                .onFailure().invoke(actionFailure::addSuppressed)
                .onFailure().recoverWithItem(Boolean.FALSE);
    }

    private record HandleSections(LockHandle handle) implements BlockingLockView.Sections {

        @Override
        public Duration defaultWait() {
            return handle.services().defaultWait();
        }

        @Override
        public Duration defaultLease() {
            return handle.services().defaultLease();
        }

        @Override
        public String lockName() {
            return handle.metricsName();
        }

        @Override
        public BlockingLockView.Claim claim(Duration wait, Duration lease) {
            return claims(handle, wait, lease).get();
        }
    }
}
