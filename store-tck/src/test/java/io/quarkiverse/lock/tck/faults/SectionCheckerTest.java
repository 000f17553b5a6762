package io.quarkiverse.lock.tck.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The checker of the randomized fault test on sections made up for each case: what it must flag, and what it must
 * excuse (a failure it reports has to be a real one).
 */
class SectionCheckerTest {

    private static final long MS = 1_000;

    /** A section that held its lock at both ends, asked for at {@code attempt} ms with a lease of 2 s. */
    private static Section held(String id, String handle, long token, long attempt, long start, long end) {
        return section(id, handle, false, token, attempt, 2_000, start, end, Section.HELD, Section.HELD);
    }

    private static Section section(String id, String handle, boolean reentrant, long token, long attempt,
            long leaseMillis, long start, long end, int heldAtStart, int heldAtEnd) {
        return new Section(id, "TEST", false, "k", token, handle, 0, reentrant, "-", attempt * MS, leaseMillis,
                start * MS, end < 0 ? -1 : end * MS, heldAtStart, heldAtEnd);
    }

    /** Checks {@code sections} with no overriding take-over to excuse anything. */
    private static SectionChecker.Verdict check(Section... sections) {
        return SectionChecker.check(List.of(sections), List.of());
    }

    private static List<String> kinds(SectionChecker.Verdict verdict) {
        return verdict.violations.stream().map(SectionChecker.Violation::kind).toList();
    }

    @Test
    void sectionsOneAfterTheOtherWithRisingTokensPass() {
        SectionChecker.Verdict verdict = check(
                held("s1", "h1", 10, 0, 5, 20),
                held("s2", "h2", 11, 1, 21, 30),
                held("s3", "h1", 12, 25, 31, 40));
        assertThat(verdict.violations).isEmpty();
        assertThat(verdict.sectionsChecked).isEqualTo(3);
    }

    @Test
    void twoHandlesInsideTheirLeasesAtOnceAreAnOverlap() {
        SectionChecker.Verdict verdict = check(
                held("s1", "h1", 10, 0, 5, 20),
                section("s2", "h2", false, 11, 1, 2_000, 15, 30, Section.NOT_HELD, Section.NOT_HELD));
        assertThat(verdict.overlaps).isEqualTo(1);
        assertThat(kinds(verdict)).contains("OVERLAP", "NOT_HELD_AT_START");
    }

    @Test
    void anOverlapAfterTheEarliestLeaseExpiryIsExcused() {
        SectionChecker.Verdict verdict = check(
                section("s1", "h1", false, 10, 0, 1_000, 900, 1_100, Section.HELD, Section.NOT_HELD),
                held("s2", "h2", 11, 950, 1_050, 1_070));
        assertThat(verdict.violations).isEmpty();
        assertThat(verdict.excusedOverlaps).isEqualTo(1);
    }

    @Test
    void aSectionHeldAtBothEndsIsNeverExcusedByItsLease() {
        SectionChecker.Verdict verdict = check(
                section("s1", "h1", false, 10, 0, 1_000, 900, 1_100, Section.HELD, Section.HELD),
                section("s2", "h2", false, 11, 950, 1_000, 1_050, 1_070, Section.UNKNOWN, Section.UNKNOWN));
        assertThat(verdict.overlaps).isEqualTo(1);
    }

    @Test
    void entriesOfOneReentrantHoldMayNestButOneSingleEntrantHandleMayNotRunTwice() {
        SectionChecker.Verdict reentrant = check(
                section("s1", "h1", true, 10, 0, 2_000, 5, 50, Section.HELD, Section.HELD),
                section("s2", "h1", true, 10, 10, 2_000, 11, 20, Section.HELD, Section.HELD));
        assertThat(reentrant.violations).isEmpty();
        SectionChecker.Verdict singleEntrant = check(
                held("s1", "h1", 10, 0, 5, 50),
                held("s2", "h1", 10, 0, 11, 20));
        assertThat(kinds(singleEntrant)).containsExactly("OVERLAP");
    }

    @Test
    void anOverridingTakeOverExcusesTheHoldItTouchedAndNothingElse() {
        Section lost = section("s1", "h1", false, 10, 0, 2_000, 5, 50, Section.HELD, Section.NOT_HELD);
        Section next = held("s2", "h2", 12, 30, 40, 60);
        OverrideWindow window = new OverrideWindow("k", "h9", 20 * MS, 35 * MS, 11, "released");
        assertThat(SectionChecker.check(List.of(lost, next), List.of(window)).violations).isEmpty();
        assertThat(kinds(check(lost, next)))
                .containsExactlyInAnyOrder("OVERLAP", "LOST_WHILE_HELD");
        OverrideWindow elsewhere = new OverrideWindow("other", "h9", 20 * MS, 35 * MS, 11, "released");
        assertThat(SectionChecker.check(List.of(lost, next), List.of(elsewhere)).violations).isNotEmpty();
    }

    @Test
    void tokensMustRiseWithTheSectionsOrder() {
        SectionChecker.Verdict verdict = check(
                held("s1", "h1", 12, 0, 5, 20),
                held("s2", "h2", 11, 1, 21, 30));
        assertThat(kinds(verdict)).containsExactly("TOKEN_ORDER");
    }

    @Test
    void anOverridingTokenIsAboveEveryEarlierHoldAndBelowEveryLaterOne() {
        Section takeOver = new Section("o1", "OVERRIDING", true, "k", 20, "h9", 0, false, "-", 100 * MS, 1_000,
                110 * MS, 120 * MS, Section.HELD, Section.HELD);
        assertThat(check(held("s1", "h1", 10, 0, 5, 20), takeOver,
                held("s2", "h2", 30, 130, 140, 150)).violations).isEmpty();
        assertThat(kinds(check(held("s1", "h1", 25, 0, 5, 20), takeOver)))
                .containsExactly("TOKEN_ORDER");
        assertThat(kinds(check(takeOver, held("s2", "h2", 15, 130, 140, 150))))
                .containsExactly("TOKEN_ORDER");
    }

    @Test
    void aSectionCancelledBeforeItsEndAnsweredCountsOnlyAtItsStart() {
        Section ended = held("s1", "h1", 10, 0, 5, 40);
        Section cancelled = section("s1", "h1", false, 10, 0, 2_000, 5, -1, Section.HELD, Section.UNKNOWN);
        Section next = held("s2", "h2", 11, 10, 30, 50);
        assertThat(check(ended, cancelled, next).violations).isEmpty();
        assertThat(check(ended, next).overlaps).isEqualTo(1);
    }

    @Test
    void aSectionWithoutTokenIsFlagged() {
        assertThat(kinds(check(held("s1", "h1", -1, 0, 5, 20))))
                .containsExactly("NO_TOKEN");
    }

    @Test
    void aLoggedLineReadsBackAsTheSameSection() {
        Section section = section("s7", "i2h5", true, 1_796_000_000_000_123L, 3, 1_500, 4, 9, Section.HELD,
                Section.NOT_HELD);
        assertThat(Section.parse(section.line())).isEqualTo(section);
    }
}
