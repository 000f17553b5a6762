package io.quarkiverse.lock.runtime.registry;

import io.quarkiverse.lock.LockException;
import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.spi.LockStore;

/**
 * Turns what a store operation failed with into what callers of the API see: a {@link LockException} naming the key,
 * the operation and the store, with the store's failure as its cause, and tells the observer. A failure that is a
 * {@code LockException} already (raised by the registry itself) passes as it is, and is not counted twice.
 */
final class StoreFailures {

    private final LockStore store;
    private final LockObserver observer;

    StoreFailures(LockStore store, LockObserver observer) {
        this.store = store;
        this.observer = observer;
    }

    /**
     * @param operation what failed, as a verb: {@code acquire}, {@code release}, {@code check}, ...
     */
    LockException toLockException(String metricsName, String key, String operation, Throwable failure) {
        if (failure instanceof LockException lockException) {
            return lockException;
        }
        observer.storeFailed(metricsName, key, operation);
        return new LockException(key, metricsName, "Could not " + operation + " lock '" + key + "' in the " + store.name()
                + " store: " + failure.getMessage(), failure);
    }
}
