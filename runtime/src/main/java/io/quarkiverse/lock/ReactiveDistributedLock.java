package io.quarkiverse.lock;

import java.time.Duration;
import java.util.OptionalLong;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;

/**
 * A handle on one distributed lock, with a Mutiny API.
 * <p>
 * Ownership belongs to the handle, never to a thread: a handle that acquired the lock may release it from any thread,
 * and two handles on the same key exclude each other even on one thread. A handle holds at most one acquisition at a
 * time (it is single-entrant): acquiring again while it holds the lock answers {@code false} without waiting.
 * <p>
 * Every acquisition has a lease: the store frees the lock when the lease runs out, so a holder that crashed does not
 * block the others forever. Each acquisition gets a fencing token, strictly increasing per key, that a downstream
 * store can use to reject writes from a holder whose lease ran out.
 * <p>
 * Nothing happens until a returned {@link Uni} or {@link Multi} is subscribed to. Cancelling a pending acquire, or an
 * {@code acquireAndExecute} whose action is running, never leaves the lock held, even when the cancellation reaches it
 * after the grant (as Mutiny's timeout operators cancel when they drop one). A {@code CompletableFuture} from
 * {@code subscribeAsCompletionStage()} completed by a timeout of its own cancels nothing: bound the wait with the
 * {@code wait} argument instead, or release the handle on that timeout. Arguments are checked when the method is
 * called: bad ones throw an {@link IllegalArgumentException} naming the argument, and nothing reaches the store.
 * Store failures are emitted as {@link LockException}.
 */
public interface ReactiveDistributedLock {

    /**
     * @return the key this handle locks, as given to {@link LockRegistry#obtain(String)}
     */
    String getLockKey();

    /**
     * Tries once to acquire the lock, with the configured lease ({@code quarkus.lock.expire-after}).
     *
     * @return a {@link Uni} emitting {@code true} if this handle now holds the lock, {@code false} if another owner
     *         holds it (or this handle already does); it fails with {@link LockException} if the store failed
     */
    Uni<Boolean> acquireOnce();

    /**
     * Tries once to acquire the lock with no lease at all: the store keeps it until this handle releases it.
     * <p>
     * Use it wisely, and rarely (administrative tasks, a maintenance mode): a holder that dies without releasing
     * keeps the lock held until someone deletes it from the store. Waiters keep polling it at their slowest pace.
     *
     * @return a {@link Uni} emitting {@code true} if this handle now holds the lock, {@code false} if another owner
     *         holds it (or this handle already does); it fails with {@link LockException} if the store failed
     */
    Uni<Boolean> acquireForever();

    /**
     * Acquires the lock, waiting up to the configured wait ({@code quarkus.lock.wait-timeout}), with the configured
     * lease.
     *
     * @return a {@link Uni} emitting {@code true} once this handle holds the lock, {@code false} if the wait ran out
     *         first; it fails with {@link LockException} if the store failed
     */
    Uni<Boolean> acquire();

    /**
     * Acquires the lock, waiting up to {@code wait}, with the configured lease. Waiting blocks no thread.
     *
     * @param wait how long to wait; zero means one attempt
     * @return a {@link Uni} emitting {@code true} once this handle holds the lock, {@code false} if the wait ran out
     *         first; it fails with {@link LockException} if the store failed
     * @throws IllegalArgumentException if {@code wait} is {@code null} or negative
     */
    Uni<Boolean> acquire(Duration wait);

    /**
     * Acquires the lock, waiting up to {@code wait}, for the given lease. Waiting blocks no thread.
     *
     * @param wait how long to wait; zero means one attempt
     * @param lease how long the store keeps the lock for this handle unless it is released first
     * @return a {@link Uni} emitting {@code true} once this handle holds the lock, {@code false} if the wait ran out
     *         first; it fails with {@link LockException} if the store failed
     * @throws IllegalArgumentException if {@code wait} is {@code null} or negative, or {@code lease} is {@code null},
     *         zero or negative
     */
    Uni<Boolean> acquire(Duration wait, Duration lease);

    /**
     * Releases the lock if this handle holds it. Only the holder can release: the store compares the owner and
     * deletes in one atomic step.
     *
     * @return a {@link Uni} emitting {@code true} if this handle held the lock and released it, {@code false} if
     *         this handle did not hold it; it fails with {@link LockExpiredException} if this handle held it but the
     *         lease ran out before the release, and with {@link LockException} if the store failed
     */
    Uni<Boolean> release();

    /**
     * Pushes the lease of this handle's hold out: if this acquisition still holds the lock, the store sets its lease
     * to {@code lease} from now, by the store's clock, in one atomic compare-and-renew step (Spring's
     * {@code renewLock(key, ttl)}, ShedLock's {@code extend} and {@code LockExtender.extendActiveLock}). The new lease
     * may be longer or shorter than the one the acquisition asked for; a reentrant hold is extended as a whole,
     * whichever entry asks, and a later re-entry renews with the longer of the extended lease and its own, never
     * shortening it.
     * <p>
     * A minimum hold ({@link #withHoldAtLeast(Duration)}) still counts from the acquisition: a lease that would end
     * before it is set to end there instead, and a release still keeps the lock until then. A hold acquired forever
     * gets the lease: without lease renewal it ends with it; when the handle renews ({@link #withLeaseRenewal(boolean)})
     * it is renewed from then on, as any renewed hold. The renewals of a renewed hold go on with the new lease, every
     * third of it.
     * <p>
     * The renewals, re-entries and extensions of one hold reach the store one at a time, in the order they were asked
     * for, each once the one before was answered: an extension waits for those asked before it, and nothing asked after
     * it is sent before it is answered. The store command is sent once, when its turn comes after the returned
     * {@link Uni} was subscribed to; cancelling the {@link Uni} before then sends nothing, and after then does not undo
     * it. It is never sent after the release that ends the hold: an extension racing a release of the same handle
     * either reaches the store first (and the release then ends the hold) or answers {@code false}, unsent.
     * <p>
     * The hold takes the new lease as its own only once the store confirmed it. When the store's answer is lost or
     * late, the returned {@link Uni} fails and the lease in the store is the old one or the new one; this handle still
     * holds the lock, ends with its release or lease, and may extend again. A renewed hold then counts on the sooner of
     * the two ends and is renewed as often as the shorter needs, with its old lease, which the store then has again;
     * since the extension may still reach the store late, a shorter lease it asked for keeps counting so for as long as
     * the hold lasts.
     *
     * @param lease how long the lock stays held from now unless it is released first
     * @return a {@link Uni} emitting {@code true} if this acquisition held the lock and its lease is now {@code lease}
     *         from now; {@code false} if this handle holds no lock or no longer holds it (released, the lease ran out,
     *         it was taken over, or the hold was found lost before the store's answer came), in which case nothing
     *         changed for any other holder; it fails with {@link LockException} if the store failed or did not answer
     *         within {@code quarkus.lock.operation-timeout}
     * @throws IllegalArgumentException if {@code lease} is {@code null}, zero, negative, shorter than a millisecond or
     *         longer than 36,500 days (100 years, as for an acquisition's lease); nothing then reaches the store
     */
    Uni<Boolean> extend(Duration lease);

    /**
     * Asks the store whether this handle holds the lock right now.
     *
     * @return a {@link Uni} emitting {@code true} if the store holds the lock for this handle, {@code false}
     *         otherwise (never acquired, released, or the lease ran out); it fails with {@link LockException} if
     *         the store failed
     */
    Uni<Boolean> isAcquired();

    /**
     * Returns the fencing token of this handle's current hold: strictly increasing per key across acquisitions,
     * releases and expiries, on every store.
     *
     * @return the token, or empty if this handle does not hold the lock (as far as it knows: a lease that ran out is
     *         noticed at the next release)
     */
    OptionalLong fencingToken();

    /**
     * Chooses whether this handle's later acquisitions renew their lease while held, instead of the configured
     * default ({@code quarkus.lock.renew-lease}). A renewed hold sets its lease again every third of it, so a holder
     * that runs longer than the lease keeps the lock as long as it lives; a holder that dies stops renewing, and the
     * lock frees within one lease. Renewal stops at release, at cancellation and at shutdown. When a renewal finds
     * the lock lost, an {@code acquireAndExecute} action is cancelled and fails with {@link LockExpiredException},
     * and {@link #release()} fails the same way.
     *
     * @param renew {@code true} to renew leases while held
     * @return this handle
     */
    ReactiveDistributedLock withLeaseRenewal(boolean renew);

    /**
     * Keeps each lock this handle acquires held until at least {@code holdAtLeast} after its acquisition, even when
     * it is released sooner: {@link #release()}, and the end of an {@code acquireAndExecute} action (with an item,
     * completion, failure or cancellation), then set the lease in the store to what remains of that time instead of
     * deleting the lock, so the store frees it by itself at that moment, also when this application stops or crashes
     * first. The hold is over for this handle at once: its renewal stops, {@link #fencingToken()} is empty, and
     * acquiring again gets the lock only once the store freed it. A release after that time frees the lock at once.
     * This is ShedLock's {@code lockAtLeastFor}: a job that instances run on offset schedules runs once per period,
     * because the instances that fire a little later in the period find the lock still held and skip.
     * <p>
     * The time is counted from when the grant reached this handle, so the store keeps the lock at least that long
     * after it granted it. Acquisitions that never reached their caller (cancelled, taken back) are freed at once, and
     * so is the lock an overriding handle's {@link #release()} frees. Every acquisition of this handle with a lease
     * shorter than {@code holdAtLeast} is refused with an {@link IllegalArgumentException}.
     *
     * @param holdAtLeast how long after its acquisition a lock stays held; zero (the default) frees it at release
     * @return this handle
     * @throws IllegalArgumentException if {@code holdAtLeast} is {@code null} or negative
     */
    ReactiveDistributedLock withHoldAtLeast(Duration holdAtLeast);

    /**
     * Names this handle in metrics (the {@code lock} tag of the {@code quarkus.lock.*} meters) and in the Dev UI's
     * statistics. Use one name per kind of lock, such as {@code order-payment}, never the key itself: every name is a
     * time series. Handles without a name are counted as {@code unnamed}; {@code @Locked} methods are named by their
     * key template.
     *
     * @param name the metrics name; not blank
     * @return this handle
     * @throws IllegalArgumentException if the name is {@code null} or blank
     */
    ReactiveDistributedLock withMetricsName(String name);

    /**
     * Acquires the lock (waiting up to {@code quarkus.lock.wait-timeout}), runs {@code action} while holding it, and
     * releases it when the action emits its item, fails, or is cancelled.
     *
     * @param action the action; subscribed to only once the lock is held
     * @param <T> the type of the action's item
     * @return a {@link Uni} emitting the action's item; it fails with {@link CannotAcquireLockException} if the wait
     *         ran out (the action is then not run), with the action's own failure unchanged if the action failed, with
     *         {@link LockExpiredException} if the action succeeded but the lease ran out before the release, or if the
     *         hold was found lost before the action started (not started then) or while it ran (cancelled then): a
     *         renewal found it lost, or the store granted another acquisition of this handle meanwhile, and with
     *         {@link LockException} if the store failed
     * @throws IllegalArgumentException if {@code action} is {@code null}
     */
    <T> Uni<T> acquireAndExecute(Uni<T> action);

    /**
     * Acquires the lock (waiting up to {@code wait}), runs {@code action} while holding it, and releases it when the
     * action emits its item, fails, or is cancelled.
     *
     * @param wait how long to wait for the lock; zero means one attempt
     * @param action the action; subscribed to only once the lock is held
     * @param <T> the type of the action's item
     * @return a {@link Uni} emitting the action's item; failures as in {@link #acquireAndExecute(Uni)}
     * @throws IllegalArgumentException if {@code wait} is {@code null} or negative, or {@code action} is {@code null}
     */
    <T> Uni<T> acquireAndExecute(Duration wait, Uni<T> action);

    /**
     * Acquires the lock (waiting up to {@code wait}) for the given lease, runs {@code action} while holding it, and
     * releases it when the action emits its item, fails, or is cancelled.
     *
     * @param wait how long to wait for the lock; zero means one attempt
     * @param lease how long the store keeps the lock unless it is released first; an action that outlives it fails
     *        with {@link LockExpiredException}
     * @param action the action; subscribed to only once the lock is held
     * @param <T> the type of the action's item
     * @return a {@link Uni} emitting the action's item; failures as in {@link #acquireAndExecute(Uni)}
     * @throws IllegalArgumentException if {@code wait} is {@code null} or negative, {@code lease} is {@code null},
     *         zero or negative, or {@code action} is {@code null}
     */
    <T> Uni<T> acquireAndExecute(Duration wait, Duration lease, Uni<T> action);

    /**
     * Acquires the lock (waiting up to {@code quarkus.lock.wait-timeout}), streams {@code action} while holding it,
     * and releases it when the stream completes, fails, or is cancelled.
     *
     * @param action the stream; subscribed to only once the lock is held
     * @param <T> the type of the stream's items
     * @return a {@link Multi} emitting the action's items; failures as in {@link #acquireAndExecute(Uni)}
     * @throws IllegalArgumentException if {@code action} is {@code null}
     */
    <T> Multi<T> acquireAndExecuteMany(Multi<T> action);

    /**
     * Acquires the lock (waiting up to {@code wait}), streams {@code action} while holding it, and releases it when
     * the stream completes, fails, or is cancelled.
     *
     * @param wait how long to wait for the lock; zero means one attempt
     * @param action the stream; subscribed to only once the lock is held
     * @param <T> the type of the stream's items
     * @return a {@link Multi} emitting the action's items; failures as in {@link #acquireAndExecute(Uni)}
     * @throws IllegalArgumentException if {@code wait} is {@code null} or negative, or {@code action} is {@code null}
     */
    <T> Multi<T> acquireAndExecuteMany(Duration wait, Multi<T> action);

    /**
     * Acquires the lock (waiting up to {@code wait}) for the given lease, streams {@code action} while holding it, and
     * releases it when the stream completes, fails, or is cancelled.
     *
     * @param wait how long to wait for the lock; zero means one attempt
     * @param lease how long the store keeps the lock unless it is released first
     * @param action the stream; subscribed to only once the lock is held
     * @param <T> the type of the stream's items
     * @return a {@link Multi} emitting the action's items; failures as in {@link #acquireAndExecute(Uni)}
     * @throws IllegalArgumentException if {@code wait} is {@code null} or negative, {@code lease} is {@code null},
     *         zero or negative, or {@code action} is {@code null}
     */
    <T> Multi<T> acquireAndExecuteMany(Duration wait, Duration lease, Multi<T> action);

    /**
     * Returns a blocking view of this same handle: same owner, same hold, same semantics.
     *
     * @return the blocking view
     */
    DistributedLock toBlocking();
}
