package io.quarkiverse.lock.tck.faults;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.assertj.core.api.SoftAssertions;

/**
 * What a run found.
 *
 * @param operations how many operations ran
 * @param took how long they took
 * @param stoppedByDeadline whether the deadline stopped them early
 * @param outcomes how many operations ended each way
 * @param faults how many faults of each kind were injected
 * @param verdict the check of the sections
 * @param history the check of the history of acquisitions and releases
 * @param quiet whether every instance's store operations had ended within the bound after the run
 *        ({@link FaultFixture#awaitQuiet}): one still queued on a key keeps that key from this instance for good
 * @param leftInStore what was left in the store once every lease had run out
 * @param handlesStillHolding the handles that still reported a hold then (which tells who holds a stuck key)
 */
public record FaultRunReport(long operations, Duration took, boolean stoppedByDeadline, Map<String, Long> outcomes,
        Map<String, Long> faults, SectionChecker.Verdict verdict, HistoryChecker.Verdict history, boolean quiet,
        List<String> leftInStore,
        List<HandleStillHolding> handlesStillHolding) {

    /** How many violations of each kind the report shows in full. */
    private static final int EXAMPLES = 5;

    /**
     * @return how many operations ended in a way that makes the run untrustworthy (the log failed) or never
     *         ended
     */
    public long harnessFailuresAndHungOperations() {
        long count = 0;
        for (Map.Entry<String, Long> outcome : outcomes.entrySet()) {
            if (outcome.getKey().contains("harness failure") || outcome.getKey().contains("hung")
                    || outcome.getKey().contains("unexpected")) {
                count += outcome.getValue();
            }
        }
        return count;
    }

    /**
     * Asserts that the run checked something and found nothing wrong: no operation failed the harness or hung, no
     * overlap, no violation of the sections' check or of the history's, no store operation still queued after the run,
     * nothing left in the store.
     */
    public void assertFaultless() {
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(operations).as("operations run").isPositive();
        softly.assertThat(verdict.sectionsChecked).as("sections checked").isPositive();
        softly.assertThat(harnessFailuresAndHungOperations()).as("operations that failed the harness or hung: "
                + outcomes).isZero();
        softly.assertThat(verdict.overlaps).as("overlaps: " + summary()).isZero();
        softly.assertThat(verdict.violations).as("violations: " + summary()).isEmpty();
        softly.assertThat(history.holds()).as("holds in the history").isPositive();
        softly.assertThat(history.violations()).as(history.summary()).isEmpty();
        softly.assertThat(quiet).as("every instance's store operations ended after the run").isTrue();
        softly.assertThat(leftInStore).as("stuck keys: " + summary()).isEmpty();
        softly.assertAll();
    }

    /**
     * @return a one-line summary for assertion messages
     */
    public String summary() {
        return String.format("%d operations, %d sections checked, %d overlaps, %d violations %s, "
                + "%d entries left in the store", operations, verdict.sectionsChecked, verdict.overlaps,
                verdict.violations.size(), verdict.countsByKind(), leftInStore.size());
    }

    /**
     * Prints the report: the counts, the faults, the verdict, and a few examples of each kind of violation with the
     * faults injected around it.
     *
     * @param store the store's name
     * @param settings the run's settings
     * @param origin the run's start, on the store's clock
     * @param timeline the faults injected
     */
    void print(String store, FaultRunSettings settings, long origin, FaultTimeline timeline) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%n=== Randomized fault run on the %s store, seed %d%s%s ===%n", store,
                settings.seed(), settings.without().isEmpty() ? "" : ", without " + settings.without(),
                settings.injectFaults() ? "" : ", no network faults"));
        out.append(String.format("operations: %d in %.1f s%s%n", operations, took.toMillis() / 1000.0,
                stoppedByDeadline ? " (stopped by the deadline of " + settings.maxDuration() + ")" : ""));
        outcomes.forEach((k, v) -> out.append(String.format("  %-70s %7d%n", k, v)));
        out.append("faults injected:").append(faults.isEmpty() ? " none (no proxy)" : "").append('\n');
        faults.forEach((k, v) -> out.append(String.format("  %-70s %7d%n", k, v)));
        out.append(String.format("sections checked: %d (overlaps excused by an expired lease or a take-over: %d)%n",
                verdict.sectionsChecked, verdict.excusedOverlaps));
        out.append(String.format("overlaps: %d%n", verdict.overlaps));
        out.append(String.format("violations: %d %s%n", verdict.violations.size(), verdict.countsByKind()));
        out.append(history.describe(origin, EXAMPLES));
        out.append(String.format("store operations still queued after the run: %s%n", quiet ? "none" : "some"));
        out.append(String.format("stuck keys (left in the store after every lease ran out): %d %s%n",
                leftInStore.size(), leftInStore));
        out.append(String.format("handles still reporting a hold at the end: %d (stale, their leases ran out, "
                + "but for the holder of each stuck key: the one with its highest token)%n",
                handlesStillHolding.size()));
        Map<String, HandleStillHolding> holders = new TreeMap<>();
        for (HandleStillHolding holding : handlesStillHolding) {
            holders.merge(holding.key(), holding, (a, b) -> a.token() >= b.token() ? a : b);
        }
        holders.forEach((key, holder) -> {
            if (leftInStore.stream().anyMatch(left -> left.contains(key))) {
                out.append(String.format("  stuck %s: token %d, held by %s%n", key, holder.token(),
                        holder.handle()));
            }
        });
        Map<String, Integer> byOperations = new TreeMap<>();
        for (SectionChecker.Violation violation : verdict.violations) {
            byOperations.merge(violation.kind() + " " + operations(violation), 1, Integer::sum);
        }
        out.append("violations by the operations involved:\n");
        byOperations.forEach((k, v) -> out.append(String.format("  %-90s %6d%n", k, v)));
        Map<String, Integer> shown = new HashMap<>();
        for (SectionChecker.Violation violation : verdict.violations) {
            if (shown.merge(violation.kind() + " " + operations(violation), 1, Integer::sum) > 1
                    || shown.merge(violation.kind(), 1, Integer::sum) > EXAMPLES) {
                continue;
            }
            out.append(String.format("%s on %s: %s%n", violation.kind(), violation.first().key(),
                    violation.why()));
            out.append("    ").append(violation.first().describe(origin)).append('\n');
            if (violation.second() != null) {
                out.append("    ").append(violation.second().describe(origin)).append('\n');
            }
            List<FaultTimeline.Event> near = timeline.between(violation.from() - 3_000_000,
                    violation.to() + 500_000);
            out.append(String.format("    faults from 3 s before to 0.5 s after: %d%s%n", near.size(),
                    near.isEmpty() ? "" : ", the last ones:"));
            for (FaultTimeline.Event event : near.subList(Math.max(0, near.size() - 8), near.size())) {
                out.append(String.format("      %+.1f ms i%d %s%n", (event.time() - origin) / 1000.0,
                        event.instance(), event.what()));
            }
        }
        System.out.print(out);
    }

    private static String operations(SectionChecker.Violation violation) {
        String first = violation.first().operation();
        if (violation.second() == null) {
            return first;
        }
        String second = violation.second().operation();
        return first.compareTo(second) <= 0 ? first + " + " + second : second + " + " + first;
    }
}
