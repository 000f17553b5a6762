package io.quarkiverse.lock.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import io.quarkiverse.lock.runtime.config.LeadershipGroups;
import io.quarkiverse.lock.runtime.config.LockRuntimeConfig;
import io.quarkiverse.lock.runtime.config.LockSettings;
import io.quarkiverse.lock.runtime.interceptor.LockedDurations;
import io.quarkiverse.lock.runtime.leadership.DefaultLeadership;
import io.quarkiverse.lock.runtime.registry.DefaultLockRegistry;
import io.quarkiverse.lock.runtime.store.inmemory.InMemoryLockStore;
import io.quarkiverse.lock.runtime.waiting.IdleLockEvictor;
import io.quarkus.arc.Arc;
import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.ShutdownContext;
import io.quarkus.runtime.annotations.Recorder;
import io.quarkus.runtime.configuration.ConfigurationException;

/**
 * Wires the locks at runtime init: validated settings, the startup message naming the store, the idle evictor
 * started now and stopped at shutdown, and the leadership groups joined now and left at shutdown.
 */
@Recorder
public class LockRecorder {

    private static final Logger LOG = Logger.getLogger("io.quarkiverse.lock");

    private final RuntimeValue<LockRuntimeConfig> config;

    /**
     * @param config the runtime configuration
     */
    public LockRecorder(RuntimeValue<LockRuntimeConfig> config) {
        this.config = config;
    }

    /**
     * Validates the configuration now, so a bad value fails startup with a message naming the property.
     *
     * @return the settings, for a synthetic bean
     */
    public Supplier<LockSettings> settings() {
        LockSettings settings = LockSettings.from(config.getValue());
        return () -> settings;
    }

    /**
     * Logs which store the locks use; for the in-memory store, that the locks are local to this JVM.
     *
     * @param store the store's name
     * @param chosenByDefault {@code true} when no provider was configured and no store client extension is present
     * @param clients the client extensions that would bring a store, for the warning that none is present
     */
    public void announceStore(String store, boolean chosenByDefault, String clients) {
        if (!InMemoryLockStore.NAME.equals(store)) {
            LOG.debugf("Quarkus Lock uses the %s store", store);
        } else if (chosenByDefault) {
            LOG.warn("Quarkus Lock uses the in-memory store because no lock store client extension (" + clients
                    + ") is present: locks are local to this JVM and do not exclude other instances. Add a store "
                    + "client extension (quarkus-lock brings the store with it), or set "
                    + "quarkus.lock.provider=in-memory to accept this.");
        } else {
            LOG.info("Quarkus Lock uses the in-memory store: locks are local to this JVM");
        }
    }

    /**
     * Resolves the {@code @Locked} durations that depend on runtime configuration now, so one that names a missing
     * property, resolves to no valid duration, or makes a minimum hold longer than its lease fails startup instead of
     * the first call.
     *
     * @param waits {@code waitTime} expressions, by the method they belong to
     * @param leases {@code expireAfter} values, by the method they belong to: expressions, and the value (possibly
     *        empty, for the configured default) of each method in {@code holds}
     * @param holds {@code holdAtLeast} values, by the method they belong to
     * @throws ConfigurationException naming the member, the method and what is wrong
     */
    public void checkDurations(Map<String, String> waits, Map<String, String> leases, Map<String, String> holds) {
        LockSettings settings = LockSettings.from(config.getValue());
        try {
            for (Map.Entry<String, String> wait : waits.entrySet()) {
                LockedDurations.resolve(wait.getValue(), settings.defaultWait(), "@Locked(waitTime) of "
                        + wait.getKey(), true);
            }
            for (Map.Entry<String, String> lease : leases.entrySet()) {
                LockedDurations.resolve(lease.getValue(), settings.defaultLease(), "@Locked(expireAfter) of "
                        + lease.getKey(), false);
            }
            for (Map.Entry<String, String> hold : holds.entrySet()) {
                String expireAfter = leases.get(hold.getKey());
                Duration lease = LockedDurations.resolve(expireAfter, settings.defaultLease(),
                        "@Locked(expireAfter) of " + hold.getKey(), false);
                LockedDurations.resolveHoldAtLeast(hold.getValue(), lease, expireAfter, "@Locked(holdAtLeast) of "
                        + hold.getKey());
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(e.getMessage(), e);
        }
    }

    /**
     * Checks the runtime configuration of the leadership groups now, so a bad value fails startup with a message naming
     * the property.
     *
     * @param declared the groups declared at build time
     * @param disabled those declared with {@code enabled=false}
     * @return the groups, for a synthetic bean
     */
    public Supplier<LeadershipGroups> leadershipGroups(Set<String> declared, Set<String> disabled) {
        LeadershipGroups groups = LeadershipGroups.from(declared, disabled, config.getValue());
        return () -> groups;
    }

    /**
     * Starts the registry (release notifications) and the idle-lock evictor, and stops both at shutdown; stopping
     * the registry stops its lease renewals. Then joins the leadership groups that join at startup; at shutdown,
     * before the registry stops, their terms end and their locks are released, so other instances are elected at once.
     *
     * @param shutdown the application's shutdown context
     */
    public void start(ShutdownContext shutdown) {
        DefaultLockRegistry registry = Arc.container().instance(DefaultLockRegistry.class).get();
        registry.start();
        shutdown.addShutdownTask(registry::close);
        IdleLockEvictor evictor = Arc.container().instance(IdleLockEvictor.class).get();
        evictor.start();
        shutdown.addShutdownTask(evictor::stop);
        LeadershipGroups groups = Arc.container().instance(LeadershipGroups.class).get();
        if (!groups.settings().isEmpty()) {
            DefaultLeadership leadership = Arc.container().instance(DefaultLeadership.class).get();
            // Shutdown tasks run last first: this one before the registry closes.
            shutdown.addShutdownTask(leadership::close);
            leadership.start(groups.joinAtStartup());
        }
    }
}
