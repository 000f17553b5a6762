package io.quarkiverse.lock.tck;

import java.time.Duration;
import java.util.function.Predicate;
import java.util.function.Supplier;

import io.quarkiverse.lock.LockException;

/**
 * Repeats a lock operation while a store comes back (restart, failover), as a caller would: it may fail with
 * {@link LockException} until the client reaches the store again.
 */
public final class StoreRecovery {

    private StoreRecovery() {
    }

    /**
     * Runs {@code operation} every 100 ms until it answers without {@link LockException} with a result that
     * {@code done} accepts, for up to {@code within}.
     *
     * @param operation the lock operation
     * @param done whether a result ends the wait
     * @param within how long to keep trying
     * @return the last result (which {@code done} may refuse, when the time ran out)
     * @throws LockException the last store failure, if the store never answered in time
     */
    public static <T> T await(Supplier<T> operation, Predicate<T> done, Duration within)
            throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            try {
                T result = operation.get();
                if (done.test(result) || System.nanoTime() > deadline) {
                    return result;
                }
            } catch (LockException storeNotBackYet) {
                if (System.nanoTime() > deadline) {
                    throw storeNotBackYet;
                }
            }
            Thread.sleep(100);
        }
    }
}
