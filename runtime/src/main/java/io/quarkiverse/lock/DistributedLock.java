package io.quarkiverse.lock;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * The blocking view of a {@link ReactiveDistributedLock}, for imperative code.
 * <p>
 * Same owner, same semantics and same errors as the reactive handle it views, with plain return values. Its methods
 * block the calling thread, so call them from worker threads (for example a {@code @Blocking} endpoint or a
 * {@code @Scheduled} job); called on a Vert.x event-loop thread they throw an {@link IllegalStateException} instead of
 * blocking it.
 * <p>
 * An acquisition whose thread is interrupted while it waits is abandoned: it leaves the line, a grant the store made
 * meanwhile is taken back (so the lock is neither held nor renewed by anyone), the thread's interrupt status is set
 * again, and a {@link java.util.concurrent.CompletionException} caused by the {@link InterruptedException} is thrown.
 * A release is not abandoned on interrupt: it waits for the store's answer (bounded by
 * {@code quarkus.lock.operation-timeout}) and then sets the interrupt status again, so an interrupted thread still
 * frees the lock it held; an extension waits the same way.
 */
public interface DistributedLock {

    /**
     * @return the key this handle locks
     */
    String getLockKey();

    /**
     * Tries once to acquire the lock, with the configured lease.
     *
     * @return {@code true} if this handle now holds the lock, {@code false} if another owner holds it (or this handle
     *         already does)
     * @throws LockException if the store failed
     */
    boolean acquireOnce();

    /**
     * Tries once to acquire the lock with no lease: the store keeps it until this handle releases it.
     *
     * @return {@code true} if this handle now holds the lock, {@code false} if another owner holds it
     * @throws LockException if the store failed
     * @see ReactiveDistributedLock#acquireForever()
     */
    boolean acquireForever();

    /**
     * Acquires the lock, waiting up to {@code quarkus.lock.wait-timeout}, with the configured lease.
     *
     * @return {@code true} once this handle holds the lock, {@code false} if the wait ran out first
     * @throws LockException if the store failed
     */
    boolean acquire();

    /**
     * Acquires the lock, waiting up to {@code wait}, with the configured lease.
     *
     * @param wait how long to wait; zero means one attempt
     * @return {@code true} once this handle holds the lock, {@code false} if the wait ran out first
     * @throws IllegalArgumentException if {@code wait} is {@code null} or negative
     * @throws LockException if the store failed
     */
    boolean acquire(Duration wait);

    /**
     * Acquires the lock, waiting up to {@code wait}, for the given lease.
     *
     * @param wait how long to wait; zero means one attempt
     * @param lease how long the store keeps the lock for this handle unless it is released first
     * @return {@code true} once this handle holds the lock, {@code false} if the wait ran out first
     * @throws IllegalArgumentException if {@code wait} is {@code null} or negative, or {@code lease} is {@code null},
     *         zero or negative
     * @throws LockException if the store failed
     */
    boolean acquire(Duration wait, Duration lease);

    /**
     * Releases the lock if this handle holds it.
     *
     * @return {@code true} if this handle held the lock and released it, {@code false} if it did not hold it
     * @throws LockExpiredException if this handle held it but the lease ran out before the release
     * @throws LockException if the store failed
     */
    boolean release();

    /**
     * Pushes the lease of this handle's hold out to {@code lease} from now, by the store's clock, if this acquisition
     * still holds the lock; the hold takes the new lease once the store confirmed it. A hold acquired forever gets the
     * lease, renewed from then on if the handle renews. Not abandoned on interrupt: it waits for the store's answer
     * (bounded by {@code quarkus.lock.operation-timeout}, after the lease commands of the hold asked for before it) and
     * then sets the interrupt status again.
     *
     * @param lease how long the lock stays held from now unless it is released first
     * @return {@code true} if this acquisition held the lock and its lease is now {@code lease} from now (or until the
     *         end of its minimum hold, if later); {@code false} if this handle holds no lock or no longer holds it
     *         (released, the lease ran out, it was taken over, or the hold was found lost before the store's answer
     *         came), in which case nothing changed for any other holder
     * @throws IllegalArgumentException if {@code lease} is {@code null}, zero, negative, shorter than a millisecond or
     *         longer than 36,500 days (100 years); nothing then reaches the store
     * @throws LockException if the store failed or did not answer in time (the lease is then the old one or the new
     *         one, and this handle still holds the lock)
     * @see ReactiveDistributedLock#extend(Duration)
     */
    boolean extend(Duration lease);

    /**
     * Asks the store whether this handle holds the lock right now.
     *
     * @return {@code true} if the store holds the lock for this handle, {@code false} otherwise
     * @throws LockException if the store failed
     */
    boolean isAcquired();

    /**
     * @return the fencing token of this handle's current hold, or empty if it does not hold the lock
     * @see ReactiveDistributedLock#fencingToken()
     */
    OptionalLong fencingToken();

    /**
     * Acquires the lock (waiting up to {@code quarkus.lock.wait-timeout}), calls {@code action} while holding it, and
     * releases it whether the action returns or throws.
     *
     * @param action the action, called only once the lock is held
     * @param <T> the action's result type
     * @param <E> the checked exception the action may throw
     * @return what the action returned
     * @throws E the action's own exception, unchanged (the lock is released first)
     * @throws CannotAcquireLockException if the wait ran out (the action is then not called)
     * @throws LockExpiredException if the action returned but the lease ran out before the release
     * @throws LockException if the store failed
     * @throws IllegalArgumentException if {@code action} is {@code null}
     */
    <T, E extends Exception> T acquireAndExecute(LockedSection<T, E> action) throws E;

    /**
     * Acquires the lock (waiting up to {@code wait}), calls {@code action} while holding it, and releases it whether
     * the action returns or throws.
     *
     * @param wait how long to wait for the lock; zero means one attempt
     * @param action the action, called only once the lock is held
     * @param <T> the action's result type
     * @param <E> the checked exception the action may throw
     * @return what the action returned
     * @throws E the action's own exception, unchanged
     * @throws IllegalArgumentException if {@code wait} is {@code null} or negative, or {@code action} is {@code null}
     * @see #acquireAndExecute(LockedSection)
     */
    <T, E extends Exception> T acquireAndExecute(Duration wait, LockedSection<T, E> action) throws E;

    /**
     * Acquires the lock (waiting up to {@code wait}) for the given lease, calls {@code action} while holding it, and
     * releases it whether the action returns or throws.
     *
     * @param wait how long to wait for the lock; zero means one attempt
     * @param lease how long the store keeps the lock unless it is released first
     * @param action the action, called only once the lock is held
     * @param <T> the action's result type
     * @param <E> the checked exception the action may throw
     * @return what the action returned
     * @throws E the action's own exception, unchanged
     * @throws IllegalArgumentException if {@code wait} is {@code null} or negative, {@code lease} is {@code null},
     *         zero or negative, or {@code action} is {@code null}
     * @see #acquireAndExecute(LockedSection)
     */
    <T, E extends Exception> T acquireAndExecute(Duration wait, Duration lease, LockedSection<T, E> action) throws E;

    /**
     * Chooses whether this handle's later acquisitions renew their lease while held.
     *
     * @param renew {@code true} to renew leases while held
     * @return this view
     * @see ReactiveDistributedLock#withLeaseRenewal(boolean)
     */
    DistributedLock withLeaseRenewal(boolean renew);

    /**
     * Keeps each lock this handle acquires held until at least {@code holdAtLeast} after its acquisition, even when
     * it is released sooner ({@link #release()}, or the end of an {@code acquireAndExecute} section, returned or
     * thrown): the release shortens the lease in the store to what remains of that time.
     *
     * @param holdAtLeast how long after its acquisition a lock stays held; zero (the default) frees it at release
     * @return this view
     * @throws IllegalArgumentException if {@code holdAtLeast} is {@code null} or negative
     * @see ReactiveDistributedLock#withHoldAtLeast(Duration)
     */
    DistributedLock withHoldAtLeast(Duration holdAtLeast);

    /**
     * @return the reactive handle this view blocks on
     */
    ReactiveDistributedLock toReactive();
}
