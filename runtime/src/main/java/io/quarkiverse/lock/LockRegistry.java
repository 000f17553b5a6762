package io.quarkiverse.lock;

/**
 * The entry point to distributed locks: inject it and obtain a lock handle per critical section.
 *
 * <pre>
 * &#64;Inject
 * LockRegistry locks;
 *
 * Uni&lt;Receipt&gt; pay(String orderId) {
 *     return locks.obtain("order-" + orderId)
 *             .acquireAndExecute(Duration.ofSeconds(5), paymentService.charge(orderId));
 * }
 * </pre>
 *
 * Handles are cheap: obtaining one does not touch the store, so obtain a fresh one per request or per task.
 */
public interface LockRegistry {

    /**
     * The longest key accepted, in characters. Longer keys fail with an {@link InvalidLockKeyException}.
     */
    int MAX_KEY_LENGTH = 512;

    /**
     * Returns a new handle on the lock named {@code key}.
     * <p>
     * Each call returns a fresh handle with its own owner identity (an unguessable id): two handles on one key exclude
     * each other even inside one JVM and one thread. Nothing reaches the store until the handle is used.
     *
     * @param key the lock's name; not blank, at most {@link #MAX_KEY_LENGTH} characters
     * @return a single-entrant handle that does not hold the lock yet
     * @throws InvalidLockKeyException if the key is {@code null}, blank or too long
     */
    default ReactiveDistributedLock obtain(String key) {
        return obtain(key, LockType.SINGLE_ENTRANT);
    }

    /**
     * Returns a new handle of the given type on the lock named {@code key}: single-entrant (as
     * {@link #obtain(String)}), reentrant, or overriding (for administration). See {@link LockType}.
     *
     * @param key the lock's name; not blank, at most {@link #MAX_KEY_LENGTH} characters
     * @param type how the handle behaves when it acquires a lock it holds, and whose lock it releases
     * @return a handle that does not hold the lock yet
     * @throws InvalidLockKeyException if the key is {@code null}, blank or too long
     * @throws IllegalArgumentException if the type is {@code null}
     */
    ReactiveDistributedLock obtain(String key, LockType type);

    /**
     * Returns a new blocking handle on the lock named {@code key}, for imperative code on worker threads.
     * <p>
     * Same semantics as {@link #obtain(String)}: {@code obtainBlocking(key)} is {@code obtain(key).toBlocking()}.
     *
     * @param key the lock's name; not blank, at most {@link #MAX_KEY_LENGTH} characters
     * @return a blocking handle that does not hold the lock yet
     * @throws InvalidLockKeyException if the key is {@code null}, blank or too long
     */
    default DistributedLock obtainBlocking(String key) {
        return obtain(key).toBlocking();
    }

    /**
     * Returns a new blocking handle of the given type on the lock named {@code key}: {@code obtain(key,
     * type).toBlocking()}.
     *
     * @param key the lock's name; not blank, at most {@link #MAX_KEY_LENGTH} characters
     * @param type how the handle behaves when it acquires a lock it holds, and whose lock it releases
     * @return a blocking handle that does not hold the lock yet
     * @throws InvalidLockKeyException if the key is {@code null}, blank or too long
     * @throws IllegalArgumentException if the type is {@code null}
     */
    default DistributedLock obtainBlocking(String key, LockType type) {
        return obtain(key, type).toBlocking();
    }
}
