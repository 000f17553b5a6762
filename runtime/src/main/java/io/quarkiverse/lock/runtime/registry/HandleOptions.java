package io.quarkiverse.lock.runtime.registry;

import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.runtime.observe.LockObserver;

/**
 * How a handle behaves. Immutable and shared by every handle that keeps the registry's defaults, so a handle costs
 * four references.
 *
 * @param holdAtLeastMillis how long after its acquisition a lock stays held when released sooner; zero: freed at once
 */
record HandleOptions(LockTypeStrategy strategy, boolean renewLease, String metricsName, long holdAtLeastMillis) {

    /** The options of a handle of that type that nobody configured. */
    static HandleOptions defaults(LockType type, boolean renewLease) {
        return new HandleOptions(LockTypeStrategy.of(type), renewLease, LockObserver.UNNAMED, 0);
    }

    LockType type() {
        return strategy.type();
    }

    HandleOptions withRenewLease(boolean renew) {
        return renew == renewLease ? this : new HandleOptions(strategy, renew, metricsName, holdAtLeastMillis);
    }

    HandleOptions withMetricsName(String name) {
        return name.equals(metricsName) ? this : new HandleOptions(strategy, renewLease, name, holdAtLeastMillis);
    }

    HandleOptions withHoldAtLeast(long millis) {
        return millis == holdAtLeastMillis ? this : new HandleOptions(strategy, renewLease, metricsName, millis);
    }
}
