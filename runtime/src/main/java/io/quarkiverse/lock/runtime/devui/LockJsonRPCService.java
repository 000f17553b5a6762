package io.quarkiverse.lock.runtime.devui;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.spi.LockStore;

/**
 * What the Dev UI card shows, over JSON-RPC: the store and its settings, the locks this application holds now, and
 * wait and hold statistics per lock name (kept by {@link DevUiLockObserver}).
 */
@Singleton
public class LockJsonRPCService {

    @Inject
    DevUiLockObserver observer;

    @Inject
    LockStore store;

    @Inject
    LockSettings settings;

    /**
     * @return the store in use and the settings the locks run with
     */
    public Map<String, String> getConfiguration() {
        Map<String, String> configuration = new LinkedHashMap<>();
        configuration.put("store", store.name());
        configuration.put("quarkus.lock.key-prefix", settings.keyPrefix());
        configuration.put("quarkus.lock.expire-after", settings.defaultLease().toString());
        configuration.put("quarkus.lock.wait-timeout", settings.defaultWait().toString());
        configuration.put("quarkus.lock.operation-timeout", settings.operationTimeout().toString());
        configuration.put("quarkus.lock.renew-lease", Boolean.toString(settings.renewLease()));
        configuration.put("quarkus.lock.expire-evict-idle", settings.evictIdleInterval().toString());
        return configuration;
    }

    /**
     * @return the locks this application holds now, oldest first
     */
    public List<DevUiLockObserver.HeldLock> getHeldLocks() {
        return observer.held();
    }

    /**
     * @return wait and hold statistics per lock name
     */
    public List<DevUiLockObserver.LockStatistics> getStatistics() {
        return observer.statistics();
    }
}
