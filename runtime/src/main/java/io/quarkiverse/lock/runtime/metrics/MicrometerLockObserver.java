package io.quarkiverse.lock.runtime.metrics;

import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.quarkiverse.lock.leadership.LeadershipEnded;
import io.quarkiverse.lock.runtime.observe.LockObserver;
import io.quarkiverse.lock.spi.LockStore;

/**
 * Lock metrics in Micrometer, when {@code quarkus-micrometer} is present and {@code quarkus.lock.metrics.enabled} is
 * true. Every meter is tagged {@code lock} (the handle's metrics name, never the raw key) and {@code store}:
 * <ul>
 * <li>{@code quarkus.lock.acquire.attempts}, {@code quarkus.lock.acquired}, {@code quarkus.lock.not.acquired}
 * (counters);</li>
 * <li>{@code quarkus.lock.wait} (timer, tagged {@code result} {@code acquired} or {@code not_acquired});</li>
 * <li>{@code quarkus.lock.hold} (timer, from acquisition to release);</li>
 * <li>{@code quarkus.lock.lease.expired} (leases that ran out while held), {@code quarkus.lock.lease.renewals};</li>
 * <li>{@code quarkus.lock.skipped} ({@code @Locked} calls that did not run their method, tagged {@code reason}
 * {@code busy} or {@code store_failure});</li>
 * <li>{@code quarkus.lock.store.errors} (tagged {@code operation});</li>
 * <li>{@code quarkus.lock.store.outages} (tagged {@code store} only: outages of the store, each counted once when it
 * starts);</li>
 * <li>{@code quarkus.lock.leadership.elections} (tagged {@code group} and {@code store}: terms this instance began) and
 * {@code quarkus.lock.leadership.terms.ended} (also tagged {@code cause}: {@code yielded}, {@code lease_lost},
 * {@code store_unreachable} or {@code shutdown}).</li>
 * </ul>
 * Meters are created once per lock name and reused.
 */
@Singleton
public class MicrometerLockObserver implements LockObserver {

    private final MeterRegistry registry;
    private final String store;
    private final ConcurrentHashMap<String, Meters> meters = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Counter> storeErrors = new ConcurrentHashMap<>();
    private final Counter storeOutages;

    /**
     * @param registry the application's meter registry
     * @param store the lock store, for the {@code store} tag
     */
    @Inject
    public MicrometerLockObserver(MeterRegistry registry, LockStore store) {
        this.registry = registry;
        this.store = store.name();
        this.storeOutages = counter("quarkus.lock.store.outages",
                "Outages of the lock store: times its operations started failing after it had answered",
                Tags.of("store", this.store));
    }

    @Override
    public void acquired(String name, String key, String owner, long token, long waitNanos) {
        meters(name).attempted(true, waitNanos);
    }

    @Override
    public void notAcquired(String name, String key, long waitNanos) {
        meters(name).attempted(false, waitNanos);
    }

    @Override
    public void skipped(String name, String key, SkipReason reason) {
        Meters lock = meters(name);
        (reason == SkipReason.BUSY ? lock.skippedBusy : lock.skippedOnStoreFailure).increment();
    }

    @Override
    public void released(String name, String key, String owner, long holdNanos) {
        meters(name).hold.record(holdNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void leaseExpired(String name, String key, String owner, long holdNanos) {
        Meters lock = meters(name);
        lock.leaseExpired.increment();
        lock.hold.record(holdNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void renewed(String name, String key) {
        meters(name).renewals.increment();
    }

    @Override
    public void storeFailed(String name, String key, String operation) {
        if ("acquire".equals(operation)) {
            meters(name).attempts.increment();
        }
        storeErrors.computeIfAbsent(name + '\n' + operation, ignored -> counter("quarkus.lock.store.errors",
                "Lock store operations that failed or did not answer in time",
                Tags.of("lock", name, "store", store, "operation", operation))).increment();
    }

    @Override
    public void storeOutageStarted() {
        storeOutages.increment();
    }

    @Override
    public void elected(String group, long term) {
        counter("quarkus.lock.leadership.elections", "Terms this instance began as leader of a leadership group",
                Tags.of("group", group, "store", store)).increment();
    }

    @Override
    public void leadershipEnded(String group, long term, LeadershipEnded.Cause cause) {
        counter("quarkus.lock.leadership.terms.ended", "Terms of this instance as leader that ended, by cause",
                Tags.of("group", group, "store", store, "cause", cause.name().toLowerCase(Locale.ROOT))).increment();
    }

    private Meters meters(String name) {
        return meters.computeIfAbsent(name, this::register);
    }

    private Meters register(String name) {
        Tags tags = Tags.of("lock", name, "store", store);
        return new Meters(
                counter("quarkus.lock.acquire.attempts", "Lock acquisitions attempted", tags),
                counter("quarkus.lock.acquired", "Lock acquisitions that got the lock", tags),
                counter("quarkus.lock.not.acquired",
                        "Lock acquisitions that ended without the lock: another owner held it", tags),
                timer("quarkus.lock.wait", "How long acquisitions waited", tags.and("result", "acquired")),
                timer("quarkus.lock.wait", "How long acquisitions waited", tags.and("result", "not_acquired")),
                timer("quarkus.lock.hold", "How long locks were held", tags),
                counter("quarkus.lock.lease.expired", "Leases that ran out while held", tags),
                counter("quarkus.lock.lease.renewals", "Lease renewals that kept the lock", tags),
                counter("quarkus.lock.skipped", "@Locked calls that did not run their method",
                        tags.and("reason", SkipReason.BUSY.tag())),
                counter("quarkus.lock.skipped", "@Locked calls that did not run their method",
                        tags.and("reason", SkipReason.STORE_FAILURE.tag())));
    }

    private Counter counter(String meter, String description, Tags tags) {
        return Counter.builder(meter).description(description).tags(tags).register(registry);
    }

    private Timer timer(String meter, String description, Tags tags) {
        return Timer.builder(meter).description(description).tags(tags).register(registry);
    }

    private record Meters(Counter attempts, Counter acquired, Counter notAcquired, Timer waitAcquired,
            Timer waitNotAcquired, Timer hold, Counter leaseExpired, Counter renewals, Counter skippedBusy,
            Counter skippedOnStoreFailure) {

        /** Counts an attempt that ended with the lock ({@code got} true) or without it, and times its wait. */
        void attempted(boolean got, long waitNanos) {
            attempts.increment();
            (got ? acquired : notAcquired).increment();
            (got ? waitAcquired : waitNotAcquired).record(waitNanos, TimeUnit.NANOSECONDS);
        }
    }
}
