package io.quarkiverse.lock.tck.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks a history of lock operations ({@link OperationHistory}) against a fenced mutex whose holds may end by lease
 * expiry, as Jepsen's lock checks and Hazelcast's {@code FencedMutex} model do, complementing {@link SectionChecker}:
 * that one reads the critical sections, this one the acquisitions and releases, with their outcomes.
 * <p>
 * A hold is a handle and a token that an acquisition reported ({@link LockOperation.Outcome#OK}); the entries of a
 * reentrant hold share it. The store granted it no earlier than the first invocation of an acquisition that may have
 * led to it (its own acquisitions and, for a reentrant handle, any acquisition of the handle whose outcome is unknown or
 * failed, since a re-entry may report a hold a cancelled acquisition got) and no later than its first acquisition's
 * completion. It was held, unless it lost its hold by design, from that completion to the latest invocation of a
 * release of it. It may have lost its hold by design when its lease could have run out (no sooner than that first
 * invocation plus the shortest lease any of those acquisitions asked for, less {@link SectionChecker#SLACK_MICROS}),
 * or when an overriding operation that may have taken effect (one whose outcome is not {@code FAIL}, from its
 * invocation to its completion, plus {@code lateEffectMicros} for an unknown outcome) touched its life. A release that
 * took effect proves the hold was still the store's when it was invoked (a token never comes back), so such a hold of
 * a single-entrant handle lost nothing; a release that failed or whose outcome is unknown proves nothing either way.
 * <p>
 * The rules, on every key:
 * <ul>
 * <li>{@code OVERLAP}: two holds of regular handles were both held at one moment, and neither could have lost its hold
 * by design by then ({@link SectionChecker}'s rule, on the holds' spans);</li>
 * <li>{@code TOKEN_ORDER}: a hold granted before another was asked for (its first acquisition completed before any
 * acquisition that may have led to the other was invoked) has the lower token; this holds across overriding
 * take-overs; and among holds nothing excuses, tokens rise in the order they were held;</li>
 * <li>an acquisition whose outcome is unknown may have granted the lock or not: it makes no hold (either way, no rule
 * can be broken by it), but it may have led to a hold a reentrant re-entry reported, and an unknown overriding one
 * excuses what it touched.</li>
 * </ul>
 * Times are microseconds on one clock, the store's where the history has it, read so that the invocation came after
 * the reading and the completion before it; the clock must not step back during the history.
 */
public final class HistoryChecker {

    private HistoryChecker() {
    }

    /**
     * @param history every operation of the history, completed or not
     * @param lateEffectMicros how long after its caller gave up an operation whose outcome is unknown may still take
     *        effect in the store (a request held in the network), for the overriding ones
     * @return the verdict: {@link Verdict#violations()} is empty if the history fits the model
     */
    public static Verdict check(List<LockOperation> history, long lateEffectMicros) {
        Verdict verdict = new Verdict();
        Map<String, List<LockOperation>> byKey = new TreeMap<>();
        for (LockOperation operation : history) {
            verdict.counts.merge(operation.kind() + " " + operation.outcome(), 1, Integer::sum);
            byKey.computeIfAbsent(operation.key(), k -> new ArrayList<>()).add(operation);
        }
        verdict.keys = byKey.size();
        for (Map.Entry<String, List<LockOperation>> key : byKey.entrySet()) {
            Map<String, Hold> holds = holds(key.getValue());
            verdict.holds += holds.size();
            checkGrantOrder(holds.values(), verdict);
            checkHolds(key.getKey(), holds, overrides(key.getKey(), key.getValue(), lateEffectMicros), verdict);
        }
        return verdict;
    }

    /** The holds the acquisitions on one key reported, each with the operations that may have led to it. */
    private static Map<String, Hold> holds(List<LockOperation> onKey) {
        Map<String, Hold> holds = new LinkedHashMap<>();
        for (LockOperation operation : onKey) {
            if (operation.kind() == LockOperation.Kind.ACQUIRE && operation.outcome() == LockOperation.Outcome.OK
                    && operation.token() >= 0) {
                holds.computeIfAbsent(operation.hold(), k -> new Hold()).granted(operation);
            }
        }
        for (LockOperation operation : onKey) {
            if (operation.kind() == LockOperation.Kind.RELEASE) {
                Hold hold = holds.get(operation.hold());
                if (hold != null) {
                    hold.released(operation);
                }
            } else if (operation.outcome() == LockOperation.Outcome.OK) {
                Hold hold = holds.get(operation.hold());
                if (hold != null) {
                    hold.mayHaveLedTo(operation);
                }
            } else if (operation.reentrant()) {
                for (Hold hold : holds.values()) {
                    hold.mayHaveLedTo(operation);
                }
            }
        }
        return holds;
    }

    /** The windows in which an overriding operation on the key may have taken the lock or freed it. */
    private static List<OverrideWindow> overrides(String key, List<LockOperation> onKey, long lateEffectMicros) {
        List<OverrideWindow> windows = new ArrayList<>();
        for (LockOperation operation : onKey) {
            if (!operation.overriding() || operation.outcome() == LockOperation.Outcome.FAIL) {
                continue;
            }
            long to = !operation.didComplete() ? Long.MAX_VALUE
                    : operation.outcome() == LockOperation.Outcome.UNKNOWN ? operation.completed() + lateEffectMicros
                            : operation.completed();
            windows.add(new OverrideWindow(key, operation.handle(), operation.invoked(), to, operation.token(),
                    operation.kind() + " " + operation.outcome()));
        }
        return windows;
    }

    /**
     * A hold granted before another was asked for has the lower token: for each hold, the highest token among the holds
     * granted before it was asked for, as a sweep in time.
     */
    private static void checkGrantOrder(Collection<Hold> holds, Verdict verdict) {
        List<Hold> byGrant = new ArrayList<>(holds);
        List<Hold> byAsk = new ArrayList<>(holds);
        byGrant.sort(Comparator.comparingLong(hold -> hold.first.completed()));
        byAsk.sort(Comparator.comparingLong(hold -> hold.asked));
        Hold highest = null;
        int next = 0;
        for (Hold later : byAsk) {
            while (next < byGrant.size() && byGrant.get(next).first.completed() < later.asked) {
                Hold earlier = byGrant.get(next++);
                if (highest == null || earlier.first.token() > highest.first.token()) {
                    highest = earlier;
                }
            }
            verdict.grantOrderChecked++;
            if (highest != null && later.first.token() <= highest.first.token()) {
                List<LockOperation> involved = new ArrayList<>(List.of(highest.first, later.askedBy));
                if (later.askedBy != later.first) {
                    involved.add(later.first);
                }
                verdict.violation("TOKEN_ORDER", "a hold granted before another was asked for has a token not below "
                        + "the later one's", involved.toArray(LockOperation[]::new));
            }
        }
    }

    /** The overlap and held-order rules of {@link SectionChecker}, on the spans the holds were held for. */
    private static void checkHolds(String key, Map<String, Hold> holds, List<OverrideWindow> windows,
            Verdict verdict) {
        Map<String, Hold> bySection = new HashMap<>();
        List<Section> spans = new ArrayList<>();
        for (Hold hold : holds.values()) {
            Section span = hold.span(key);
            if (span != null) {
                bySection.put(span.id(), hold);
                spans.add(span);
            }
        }
        verdict.spansChecked += spans.size();
        SectionChecker.Verdict checked = SectionChecker.check(spans, windows);
        verdict.overlaps += checked.overlaps;
        verdict.excusedOverlaps += checked.excusedOverlaps;
        for (SectionChecker.Violation violation : checked.violations) {
            List<LockOperation> involved = new ArrayList<>(bySection.get(violation.first().id()).operations());
            if (violation.second() != null) {
                involved.addAll(bySection.get(violation.second().id()).operations());
            }
            verdict.violation(violation.kind(), violation.why(), involved.toArray(LockOperation[]::new));
        }
    }

    /** One hold, from the operations that report it. */
    private static final class Hold {

        /** Its first acquisition to complete (an acquisition that took effect completed): granted by then. */
        LockOperation first;
        /** The earliest invocation of an acquisition that may have led to it, and that acquisition. */
        long asked = Long.MAX_VALUE;
        LockOperation askedBy;
        /** The shortest lease those acquisitions asked for; {@code Long.MAX_VALUE} if none had one. */
        long shortestLeaseMillis = Long.MAX_VALUE;
        /** Its release invoked last, or {@code null}. */
        LockOperation lastRelease;
        /** Whether a release of it took effect. */
        boolean releasedByItsHolder;

        void granted(LockOperation acquisition) {
            if (first == null || acquisition.completed() < first.completed()) {
                first = acquisition;
            }
        }

        /**
         * Counts an acquisition of its handle invoked no later than its first completion as one that may have led to
         * it.
         */
        void mayHaveLedTo(LockOperation acquisition) {
            if (!acquisition.handle().equals(first.handle()) || acquisition.invoked() > first.completed()) {
                return;
            }
            if (acquisition.invoked() < asked) {
                asked = acquisition.invoked();
                askedBy = acquisition;
            }
            if (acquisition.leaseMillis() > 0) {
                shortestLeaseMillis = Math.min(shortestLeaseMillis, acquisition.leaseMillis());
            }
        }

        void released(LockOperation release) {
            if (lastRelease == null || release.invoked() > lastRelease.invoked()) {
                lastRelease = release;
            }
            releasedByItsHolder |= release.outcome() == LockOperation.Outcome.OK;
        }

        /**
         * @return the span it was held for, as a section, or {@code null} if none is certain: an overriding hold, one
         *         never released, or one whose release was invoked no later than its acquisition completed
         */
        Section span(String key) {
            if (first.overriding() || lastRelease == null || lastRelease.invoked() <= first.completed()) {
                return null;
            }
            int held = releasedByItsHolder && !first.reentrant() ? Section.HELD : Section.UNKNOWN;
            return new Section("op" + first.id(), first.name(), false, key, first.token(), first.handle(), 0,
                    first.reentrant(), "-", asked, shortestLeaseMillis == Long.MAX_VALUE ? 0 : shortestLeaseMillis,
                    first.completed(), lastRelease.invoked(), held, held);
        }

        List<LockOperation> operations() {
            List<LockOperation> involved = new ArrayList<>();
            if (askedBy != first) {
                involved.add(askedBy);
            }
            involved.add(first);
            if (lastRelease != null) {
                involved.add(lastRelease);
            }
            return involved;
        }
    }

    /**
     * What the check found: what it checked (operations by kind and outcome, keys, holds) and every violation.
     */
    public static final class Verdict {

        private final Map<String, Integer> counts = new TreeMap<>();
        private final List<Violation> violations = new ArrayList<>();
        private int keys;
        private int holds;
        private int spansChecked;
        private int grantOrderChecked;
        private int overlaps;
        private int excusedOverlaps;

        void violation(String kind, String why, LockOperation... operations) {
            violations.add(new Violation(kind, why, List.of(operations)));
        }

        /**
         * @return how many operations the history had of each kind and outcome, as {@code ACQUIRE OK}
         */
        public Map<String, Integer> counts() {
            return counts;
        }

        /**
         * @return the violations found; empty if the history fits the model
         */
        public List<Violation> violations() {
            return violations;
        }

        /**
         * @return how many keys the history had operations on
         */
        public int keys() {
            return keys;
        }

        /**
         * @return how many holds the acquisitions reported
         */
        public int holds() {
            return holds;
        }

        /**
         * @return how many overlaps of two holds it found that nothing excused
         */
        public int overlaps() {
            return overlaps;
        }

        /**
         * @return how many more overlaps it found that an expired lease or an overriding operation excused
         */
        public int excusedOverlaps() {
            return excusedOverlaps;
        }

        /**
         * @return the violations' counts by kind
         */
        public Map<String, Integer> countsByKind() {
            Map<String, Integer> byKind = new TreeMap<>();
            for (Violation violation : violations) {
                byKind.merge(violation.kind(), 1, Integer::sum);
            }
            return byKind;
        }

        /**
         * @return one line: what was checked and what was found
         */
        public String summary() {
            int operations = 0;
            for (int count : counts.values()) {
                operations += count;
            }
            return String.format("history: %d operations %s on %d keys, %d holds (%d with a certain span, %d checked "
                    + "for grant order), %d overlaps (%d more excused), %d violations %s", operations, counts,
                    keys, holds, spansChecked, grantOrderChecked, overlaps, excusedOverlaps,
                    violations.size(), countsByKind());
        }

        /**
         * @param origin the history's start, on its clock
         * @param limit how many violations of each kind to describe
         * @return the summary, then each violation described (up to {@code limit} of a kind), with its operations
         */
        public String describe(long origin, int limit) {
            StringBuilder out = new StringBuilder(summary()).append('\n');
            Map<String, Integer> shown = new HashMap<>();
            for (Violation violation : violations) {
                if (shown.merge(violation.kind(), 1, Integer::sum) <= limit) {
                    out.append(violation.describe(origin));
                }
            }
            return out.toString();
        }
    }

    /**
     * One violation of the model.
     *
     * @param kind {@code OVERLAP} or {@code TOKEN_ORDER}
     * @param why what is wrong
     * @param operations the operations involved: for each hold, the acquisition that asked for it first (if another),
     *        the one that reported it first, and its last release
     */
    public record Violation(String kind, String why, List<LockOperation> operations) {

        /**
         * @param origin the history's start, on its clock
         * @return the kind, why, and each operation on its own line, with its times and token
         */
        public String describe(long origin) {
            StringBuilder out = new StringBuilder(kind).append(": ").append(why).append('\n');
            for (LockOperation operation : operations) {
                out.append("    ").append(operation.describe(origin)).append('\n');
            }
            return out.toString();
        }
    }
}
