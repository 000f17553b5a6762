package io.quarkiverse.lock.runtime.registry;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.quarkiverse.lock.CannotAcquireLockException;
import io.quarkiverse.lock.LockExpiredException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

/**
 * Runs an action only while a handle holds its lock: acquires, runs the action, and gives the hold back when the
 * action ends with an item or completion, a failure, or a cancellation, exactly once ({@link ClaimedAcquisition}); for
 * a {@code Uni}, a {@code Multi}, and the sections of the blocking view ({@link BlockingLockHandle}). A
 * cancelled execution gives back only what it acquired itself: an entry of a reentrant hold it entered, never a hold
 * the handle had before.
 */
final class GuardedExecution {

    private static final String CANCELLED = "its operation was cancelled";

    private GuardedExecution() {
    }

    /**
     * @param handle the handle
     * @param wait how long to wait for the lock
     * @param lease the lease
     * @param action the action
     * @return the action's item; fails with {@link CannotAcquireLockException} when the wait ran out, with
     *         {@link LockExpiredException} when the lock was found lost, or with the action's failure
     * @throws IllegalArgumentException if the wait, the lease or the action is invalid, or the lease is shorter than
     *         the handle's minimum hold
     */
    static <T> Uni<T> uni(LockHandle handle, Duration wait, Duration lease, Uni<T> action) {
        long waitNanos = LockArguments.requireWait(wait);
        long leaseMillis = leaseMillis(handle, lease);
        LockArguments.requireAction(action);
        return Uni.createFrom().deferred(() -> {
            ClaimedAcquisition claim = new ClaimedAcquisition(handle, handle.acquisition(waitNanos, leaseMillis));
            return claim.flatMap(held -> {
                if (held == null) {
                    return Uni.createFrom().<T> failure(new CannotAcquireLockException(handle.key, handle.metricsName(), wait));
                }
                return endWhenLost(held, claim.guard(action))
                        .onFailure().call(failure -> giveBackAfterFailure(claim, failure))
                        .onItem().call(claim::giveBack)
                        .onCancellation().invoke(() -> claim.giveBackOnCancellation(CANCELLED));
            });
        });
    }

    /**
     * @param handle the handle
     * @param wait how long to wait for the lock
     * @param lease the lease
     * @param action the action
     * @return the action's items; fails as {@link #uni} does
     * @throws IllegalArgumentException as {@link #uni} does
     */
    static <T> Multi<T> multi(LockHandle handle, Duration wait, Duration lease, Multi<T> action) {
        long waitNanos = LockArguments.requireWait(wait);
        long leaseMillis = leaseMillis(handle, lease);
        LockArguments.requireAction(action);
        return Multi.createFrom().deferred(() -> {
            ClaimedAcquisition claim = new ClaimedAcquisition(handle, handle.acquisition(waitNanos, leaseMillis));
            return claim.onItem().transformToMulti(held -> {
                if (held == null) {
                    return Multi.createFrom()
                            .<T> failure(new CannotAcquireLockException(handle.key, handle.metricsName(), wait));
                }
                return endWhenLost(held, claim.guard(action))
                        .onFailure().call(failure -> giveBackAfterFailure(claim, failure))
                        .onCompletion().call(claim::giveBack)
                        .onCancellation().invoke(() -> claim.giveBackOnCancellation(CANCELLED));
            });
        });
    }

    /**
     * @param handle the handle
     * @return where the blocking view of the handle gets the acquisitions of its guarded sections: each gives back
     *         only the hold it got ({@link ClaimedAcquisition})
     */
    static BlockingLockHandle.Sections sections(LockHandle handle) {
        return new HandleSections(handle);
    }

    private static long leaseMillis(LockHandle handle, Duration lease) {
        return LockArguments.requireLeaseCoversHold(LockArguments.requireLease(lease), handle.holdAtLeastMillis());
    }

    /**
     * Runs the action, but fails it with {@link LockExpiredException} (and cancels it) as soon as a renewal finds the
     * lock lost. Without renewal nothing can find it lost while the action runs, so the action runs as it is.
     */
    private static <T> Uni<T> endWhenLost(Hold held, Uni<T> action) {
        if (held.renewal == null) {
            return action;
        }
        return Uni.createFrom().emitter(emitter -> {
            Cancellable running = action.subscribe().with(emitter::complete, emitter::fail);
            held.end().whenComplete((ignored, lost) -> {
                if (lost != null) {
                    running.cancel();
                    emitter.fail(lost);
                }
            });
            emitter.onTermination(running::cancel);
        });
    }

    private static <T> Multi<T> endWhenLost(Hold held, Multi<T> action) {
        if (held.renewal == null) {
            return action;
        }
        CompletableFuture<Void> stop = new CompletableFuture<>();
        held.end().whenComplete((ignored, lost) -> {
            if (lost != null) {
                stop.completeExceptionally(lost);
            }
        });
        Multi<T> lost = Multi.createFrom().completionStage(stop).onItem().transformToMultiAndConcatenate(
                ignored -> Multi.createFrom().empty());
        return Multi.createBy().merging().streams(action.onTermination().invoke(() -> stop.complete(null)), lost);
    }

    /**
     * Gives the hold back after the action failed: a release failure is added to the action's failure as suppressed,
     * so the caller sees the action's own failure. When the action failed because the lock was lost, the caller is
     * told at once: the release is expected to find the lock gone (or the store unreachable) and is not waited for.
     */
    private static Uni<Boolean> giveBackAfterFailure(ClaimedAcquisition claim, Throwable actionFailure) {
        if (actionFailure instanceof LockExpiredException) {
            claim.giveBackQuietly("its lease was found lost");
            return Uni.createFrom().item(Boolean.FALSE);
        }
        return claim.giveBack()
                .onFailure().invoke(actionFailure::addSuppressed)
                .onFailure().recoverWithItem(Boolean.FALSE);
    }

    private record HandleSections(LockHandle handle) implements BlockingLockHandle.Sections {

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
        public BlockingLockHandle.Claim claim(Duration wait, Duration lease) {
            long waitNanos = LockArguments.requireWait(wait);
            return new ClaimedAcquisition(handle, handle.acquisition(waitNanos, leaseMillis(handle, lease)));
        }
    }
}
