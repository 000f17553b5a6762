package io.quarkiverse.lock.tck.faults;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decides, from the logged sections alone, whether a lock was ever held twice.
 * <p>
 * Two regular sections on one key that overlap in time are a violation, unless they are entries of one hold (same
 * reentrant handle, same token), or one of them may have lost its hold by design before the overlap began: its lease
 * could have run out by then (the earliest a lease can run out is the acquisition's request time plus its lease, since
 * the store starts the lease when it grants), or an overriding handle took the lock (or freed it whoever held it)
 * while the hold lived. A section the store confirmed held under its token at both ends held the lock all along, so
 * nothing excuses it. Where the store can be asked (Redis), a section whose hold was missing at its start or end
 * although neither excuse applies is a violation too. Tokens must rise with the sections' order on every key, and
 * around every overriding take-over. All times are the store's clock, in microseconds.
 */
public final class SectionChecker {

    /** Slack for the rounding of the store's lease expiry (milliseconds) against its clock (microseconds). */
    public static final long SLACK_MICROS = 2_000;

    private SectionChecker() {
    }

    /**
     * @param sections every logged section, ended or not (an unfinished one counts as running at its start only, and
     *        wins over an ended record of the same section: it was cancelled before its end stamp answered)
     * @param windows every overriding window
     * @return the verdict
     */
    public static Verdict check(List<Section> sections, List<OverrideWindow> windows) {
        Map<String, Section> byId = new LinkedHashMap<>();
        for (Section section : sections) {
            byId.merge(section.id(), section, (a, b) -> a.ended() ? b : a);
        }
        Map<String, List<Section>> regular = new TreeMap<>();
        Map<String, List<Section>> overriding = new TreeMap<>();
        for (Section section : byId.values()) {
            (section.overriding() ? overriding : regular).computeIfAbsent(section.key(), k -> new ArrayList<>())
                    .add(section);
        }
        Map<String, List<OverrideWindow>> windowsByKey = new HashMap<>();
        for (OverrideWindow window : windows) {
            windowsByKey.computeIfAbsent(window.key(), k -> new ArrayList<>()).add(window);
        }
        Holds holds = new Holds(byId.values());
        Verdict verdict = new Verdict(byId.size());
        for (Map.Entry<String, List<Section>> key : regular.entrySet()) {
            List<Section> onKey = key.getValue();
            onKey.sort(Comparator.comparingLong(Section::start));
            List<OverrideWindow> keyWindows = windowsByKey.getOrDefault(key.getKey(), List.of());
            checkTokensReported(onKey, verdict);
            checkOverlaps(onKey, holds, keyWindows, verdict);
            checkHeldWhileRunning(onKey, holds, keyWindows, verdict);
            checkTokensRise(onKey, holds, keyWindows, verdict);
            checkOverridingTokens(onKey, overriding.getOrDefault(key.getKey(), List.of()), verdict);
        }
        return verdict;
    }

    private static void checkTokensReported(List<Section> onKey, Verdict verdict) {
        for (Section section : onKey) {
            if (section.token() < 0) {
                verdict.violation("NO_TOKEN", section, null,
                        "the section ran although its handle reported no hold (no fencing token)");
            }
        }
    }

    private static void checkOverlaps(List<Section> onKey, Holds holds, List<OverrideWindow> windows,
            Verdict verdict) {
        for (int i = 0; i < onKey.size(); i++) {
            Section a = onKey.get(i);
            long aEnd = a.ended() ? a.end() : a.start() + 1;
            for (int j = i + 1; j < onKey.size(); j++) {
                Section b = onKey.get(j);
                if (b.start() >= aEnd) {
                    break;
                }
                if (a.reentrant() && b.reentrant() && a.hold().equals(b.hold())) {
                    continue;
                }
                long overlapStart = b.start();
                if (excused(a, overlapStart, holds, windows) || excused(b, overlapStart, holds, windows)) {
                    verdict.excusedOverlaps++;
                    continue;
                }
                verdict.overlaps++;
                verdict.violation("OVERLAP", a, b, "two holders on one key at once, neither of which could have "
                        + "lost its hold by lease expiry or an overriding take-over before the overlap began");
            }
        }
    }

    private static void checkHeldWhileRunning(List<Section> onKey, Holds holds, List<OverrideWindow> windows,
            Verdict verdict) {
        for (Section section : onKey) {
            long earliestExpiry = holds.earliestExpiry(section);
            long holdStart = holds.earliestAttempt(section);
            if (section.heldAtStart() == Section.NOT_HELD && section.start() < earliestExpiry - SLACK_MICROS
                    && !overridden(windows, holdStart, section.start())) {
                verdict.violation("NOT_HELD_AT_START", section, null, "the store did not hold the lock under the "
                        + "section's token when it started, although its lease could not have run out yet and no "
                        + "overriding take-over touched it");
            } else if (section.ended() && section.heldAtEnd() == Section.NOT_HELD
                    && section.end() < earliestExpiry - SLACK_MICROS && !overridden(windows, holdStart, section.end())) {
                verdict.violation("LOST_WHILE_HELD", section, null, "the store no longer held the lock under the "
                        + "section's token when it ended, although its lease could not have run out yet and no "
                        + "overriding take-over touched it");
            }
        }
    }

    /**
     * Among sections that nothing can excuse, in the order they started, each hold's token is above the previous
     * hold's.
     */
    private static void checkTokensRise(List<Section> onKey, Holds holds, List<OverrideWindow> windows,
            Verdict verdict) {
        Section previous = null;
        for (Section section : onKey) {
            if (!section.ended() || section.token() < 0 || excused(section, section.end(), holds, windows)) {
                continue;
            }
            if (previous != null && !previous.hold().equals(section.hold()) && section.token() <= previous.token()) {
                verdict.violation("TOKEN_ORDER", previous, section,
                        "a later hold's fencing token is not above the earlier one's");
            }
            if (previous == null || section.token() >= previous.token()) {
                previous = section;
            }
        }
    }

    /**
     * An overriding take-over's token is above every hold granted before it was asked for, and below every hold asked
     * for after it was reported.
     */
    private static void checkOverridingTokens(List<Section> onKey, List<Section> overridingOnKey, Verdict verdict) {
        for (Section takeOver : overridingOnKey) {
            if (takeOver.token() < 0) {
                verdict.violation("NO_TOKEN", takeOver, null, "an overriding section ran with no fencing token");
                continue;
            }
            for (Section section : onKey) {
                if (section.token() < 0) {
                    continue;
                }
                if (section.start() < takeOver.attempt() && section.token() >= takeOver.token()) {
                    verdict.violation("TOKEN_ORDER", section, takeOver, "a hold granted before an overriding "
                            + "take-over was asked for has a token not below the take-over's");
                } else if (section.attempt() > takeOver.start() && section.token() <= takeOver.token()) {
                    verdict.violation("TOKEN_ORDER", takeOver, section, "a hold asked for after an overriding "
                            + "take-over was reported has a token not above the take-over's");
                }
            }
        }
    }

    /**
     * @return whether the section's hold may have ended by design before {@code time}: its lease could have run out,
     *         or an overriding take-over touched the hold's life; never for a section held at both ends
     */
    private static boolean excused(Section section, long time, Holds holds, List<OverrideWindow> windows) {
        if (section.heldThroughout()) {
            return false;
        }
        if (time >= holds.earliestExpiry(section) - SLACK_MICROS) {
            return true;
        }
        return overridden(windows, holds.earliestAttempt(section), section.ended() ? section.end() : section.start());
    }

    private static boolean overridden(List<OverrideWindow> windows, long from, long to) {
        for (OverrideWindow window : windows) {
            if (window.touches(from, to)) {
                return true;
            }
        }
        return false;
    }

    /** The earliest request time and shortest lease of each hold's acquisitions. */
    private static final class Holds {

        private final Map<String, long[]> attemptAndLease = new HashMap<>();

        Holds(Iterable<Section> sections) {
            for (Section section : sections) {
                long lease = section.leaseMillis() == 0 ? Long.MAX_VALUE / 4 : section.leaseMillis() * 1000;
                attemptAndLease.merge(section.hold(), new long[] { section.attempt(), lease },
                        (a, b) -> new long[] { Math.min(a[0], b[0]), Math.min(a[1], b[1]) });
            }
        }

        long earliestAttempt(Section section) {
            return attemptAndLease.get(section.hold())[0];
        }

        long earliestExpiry(Section section) {
            long[] hold = attemptAndLease.get(section.hold());
            return hold[0] + hold[1];
        }
    }

    /**
     * What the check found: how many sections it checked, how many overlaps it found and excused, and the violations.
     */
    public static final class Verdict {

        final int sectionsChecked;
        int overlaps;
        int excusedOverlaps;
        final List<Violation> violations = new ArrayList<>();

        Verdict(int sectionsChecked) {
            this.sectionsChecked = sectionsChecked;
        }

        void violation(String kind, Section first, Section second, String why) {
            violations.add(new Violation(kind, first, second, why));
        }

        /**
         * @return how many violations of each kind
         */
        public Map<String, Integer> countsByKind() {
            Map<String, Integer> counts = new TreeMap<>();
            for (Violation violation : violations) {
                counts.merge(violation.kind(), 1, Integer::sum);
            }
            return counts;
        }
    }

    /**
     * One violation.
     *
     * @param kind {@code OVERLAP}, {@code NOT_HELD_AT_START}, {@code LOST_WHILE_HELD}, {@code TOKEN_ORDER} or
     *        {@code NO_TOKEN}
     * @param first the section it is about
     * @param second the other section involved, or {@code null}
     * @param why what is wrong
     */
    public record Violation(String kind, Section first, Section second, String why) {

        /**
         * @return when the first section involved started
         */
        public long from() {
            return second == null ? first.start() : Math.min(first.start(), second.start());
        }

        /**
         * @return when the last section involved ended (or started, if it never ended)
         */
        public long to() {
            long end = first.ended() ? first.end() : first.start();
            if (second != null) {
                end = Math.max(end, second.ended() ? second.end() : second.start());
            }
            return end;
        }
    }
}
