package io.quarkiverse.lock;

/**
 * A piece of blocking code that runs while a lock is held, for {@link DistributedLock#acquireAndExecute}.
 * <p>
 * Its exception type is inferred: a lambda that throws no checked exception makes {@code acquireAndExecute} throw
 * none, and one that throws {@code IOException} makes it throw {@code IOException}, unchanged.
 *
 * @param <T> the result type
 * @param <E> the checked exception it may throw
 */
@FunctionalInterface
public interface LockedSection<T, E extends Exception> {

    /**
     * Runs the section.
     *
     * @return its result
     * @throws E its failure, which reaches the caller of {@code acquireAndExecute} unchanged
     */
    T run() throws E;
}
