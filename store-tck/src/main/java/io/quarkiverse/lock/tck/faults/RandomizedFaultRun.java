package io.quarkiverse.lock.tck.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.spi.LockRegistrySettings;

/**
 * The randomized fault harness: one run on one store starts the instances ({@link FaultFixture}), runs random
 * operations ({@link FaultOperation}) from many workers while faults are injected, stops the faults, lets the longest
 * lease run out, then checks the logged sections ({@link SectionChecker}), the history of acquisitions and releases
 * ({@link HistoryChecker}) and what is left in the store, and prints the report. No lock may be held twice, tokens must rise,
 * and no lock may be left held. Seed, size and soak:
 * {@link FaultRunSettings}.
 */
public final class RandomizedFaultRun {

    /** The namespace of the run's keys in the store. */
    public static final String KEY_PREFIX = "faults:";
    /** Leases are 1-3 s; the default one (for {@code acquireOnce}) is 2 s; one store operation may take 1 s. */
    public static final LockRegistrySettings LOCK_SETTINGS = LockRegistrySettings.defaults()
            .withExpireAfter(Duration.ofSeconds(2)).withWaitTimeout(Duration.ofSeconds(1)).withKeyPrefix(KEY_PREFIX)
            .withOperationTimeout(Duration.ofSeconds(1));
    /** The longest lease, plus how long a waiter keeps its place in the Redis line after its last attempt. */
    private static final Duration SETTLE = Duration.ofSeconds(3).plusSeconds(2).plusMillis(500);
    /** How long the stores' queued operations may take to drain once the faults stopped. */
    private static final Duration QUIET = Duration.ofSeconds(60);

    private RandomizedFaultRun() {
    }

    /**
     * For each violation, the overriding windows on its key that ended up to 15 s before it: a request that took
     * effect after its window (a take-over sent late) shows as a violation that no window excuses.
     */
    private static void printOverridesNear(SectionChecker.Verdict verdict, List<OverrideWindow> windows, long origin) {
        for (SectionChecker.Violation violation : verdict.violations) {
            Section first = violation.first();
            System.out.printf("overriding windows on %s up to 15 s before %s:%n", first.key(), first.id());
            for (OverrideWindow window : windows) {
                if (window.key().equals(first.key()) && window.to() >= first.start() - 15_000_000
                        && window.from() <= first.start()) {
                    System.out.printf("    %s %+.1f..%+.1f ms token %d: %s%n", window.handle(),
                            (window.from() - origin) / 1000.0, (window.to() - origin) / 1000.0, window.token(),
                            window.outcome());
                }
            }
        }
    }

    /**
     * For each violation, where the fixture keeps a record of the store's changes: those changes on its key from 3 s
     * before it to its end, merged in time with the sections on that key and the faults injected meanwhile.
     */
    private static void printStoreChangesNear(FaultFixture store, SectionChecker.Verdict verdict,
            List<Section> sections, FaultTimeline timeline, long origin) {
        for (SectionChecker.Violation violation : verdict.violations) {
            String key = violation.first().key();
            long from = violation.from() - 3_000_000;
            long to = violation.to();
            List<FaultTimeline.Event> changes = store.storeChanges(key, from, to);
            if (changes.isEmpty()) {
                continue;
            }
            List<FaultTimeline.Event> merged = new ArrayList<>();
            for (FaultTimeline.Event change : changes) {
                merged.add(new FaultTimeline.Event(change.time(), change.instance(), "STORE " + change.what()));
            }
            for (Section section : sections) {
                if (!section.key().equals(key)) {
                    continue;
                }
                String name = section.id() + " " + section.operation() + " " + section.handle() + " token "
                        + section.token();
                addIn(merged, section.attempt(), section.instance(), "asked " + name, from, to);
                addIn(merged, section.start(), section.instance(), "start " + name + " held "
                        + section.heldAtStart(), from, to);
                if (section.ended()) {
                    addIn(merged, section.end(), section.instance(), "end " + name + " held " + section.heldAtEnd(),
                            from, to);
                }
            }
            merged.addAll(timeline.between(from, to));
            merged.sort(Comparator.comparingLong(FaultTimeline.Event::time));
            System.out.printf("store changes, sections and faults on %s around %s:%n", key, violation.first().id());
            for (FaultTimeline.Event event : merged) {
                System.out.printf("    %+.1f ms i%d %s%n", (event.time() - origin) / 1000.0, event.instance(),
                        event.what().replace('\n', ' '));
            }
        }
    }

    private static void addIn(List<FaultTimeline.Event> events, long time, int instance, String what, long from,
            long to) {
        if (time >= from && time <= to) {
            events.add(new FaultTimeline.Event(time, instance, what));
        }
    }

    /**
     * Runs, and closes the store whatever happens.
     *
     * @param store the store's binding
     * @param settings the run's size and seed
     * @return what the run found; {@link FaultRunReport#assertFaultless()} fails the test if it found anything wrong
     * @throws InterruptedException if the thread is interrupted while the workers run
     */
    public static FaultRunReport run(FaultFixture store, FaultRunSettings settings) throws InterruptedException {
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < settings.keys(); k++) {
            keys.add("faults-k" + k);
        }
        System.out.printf("Randomized fault run on the %s store: seed %d (-Dfaults.seed=%d), %d operations, "
                + "%d instances x %d workers, %d keys%s%s%s%n", store.name(), settings.seed(), settings.seed(),
                settings.operations(), settings.instances(), settings.workersPerInstance(), settings.keys(),
                settings.soak() ? ", soak" : "", settings.without().isEmpty() ? "" : ", without " + settings.without(),
                settings.injectFaults() ? "" : ", no network faults");
        try (store) {
            List<? extends LockRegistry> registries = store.start(settings.instances(), LOCK_SETTINGS);
            SectionLog log = store.log();
            long origin = log.now().await().atMost(Duration.ofSeconds(30));
            FaultTimeline timeline = new FaultTimeline();
            RandomOperations operations = new RandomOperations(settings, log, keys, LOCK_SETTINGS.expireAfter());
            long started = System.nanoTime();
            if (settings.injectFaults()) {
                store.startFaults(settings.seed(), timeline);
            }
            long ran;
            try {
                ran = operations.run(registries);
            } finally {
                store.stopFaults();
            }
            Duration took = Duration.ofNanos(System.nanoTime() - started);
            // The leases count from the last grant, which a store may make late, from a queue that drains only now.
            boolean quiet = store.awaitQuiet(QUIET);
            if (!quiet) {
                System.out.printf("The %s store still had operations queued %d s after the run%n", store.name(),
                        QUIET.toSeconds());
            }
            Thread.sleep(SETTLE.toMillis());
            List<String> left = store.leftInStore(keys);
            List<Section> sections = log.sections();
            SectionChecker.Verdict verdict = SectionChecker.check(sections, log.overridingWindows());
            HistoryChecker.Verdict history = HistoryChecker.check(operations.history().operations(),
                    CancelledOperations.OVERRIDE_MARGIN_MICROS);
            FaultRunReport report = new FaultRunReport(ran, took, operations.stoppedByDeadline(), operations.outcomes(),
                    store.faultCounts(), verdict, history, quiet, left, operations.handlesStillHolding());
            report.print(store.name(), settings, origin, timeline);
            printOverridesNear(verdict, log.overridingWindows(), origin);
            printStoreChangesNear(store, verdict, sections, timeline, origin);
            return report;
        }
    }
}
