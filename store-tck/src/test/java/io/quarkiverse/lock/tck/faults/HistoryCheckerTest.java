package io.quarkiverse.lock.tck.faults;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.tck.faults.LockOperation.Kind;
import io.quarkiverse.lock.tck.faults.LockOperation.Outcome;

/**
 * The history checker on histories made up for each case: what it must reject, naming the operations, and what it
 * must accept (an unknown outcome either way, an overlap an expired lease excuses).
 */
class HistoryCheckerTest {

    private static final long MS = 1_000;
    private static final long LATE = 3_000 * MS;

    private final List<LockOperation> history = new ArrayList<>();

    /** An acquisition of {@code handle} on key {@code k} with a lease of 2 s, times in milliseconds. */
    private LockOperation acquire(String handle, long invoked, long completed, Outcome outcome, long token) {
        return acquire(handle, false, 2_000, invoked, completed, outcome, token);
    }

    private LockOperation acquire(String handle, boolean overriding, long leaseMillis, long invoked, long completed,
            Outcome outcome, long token) {
        return add(Kind.ACQUIRE, handle, overriding, leaseMillis, invoked, completed, outcome, token);
    }

    private LockOperation release(String handle, long token, long invoked, long completed, Outcome outcome) {
        return add(Kind.RELEASE, handle, false, 0, invoked, completed, outcome, token);
    }

    private LockOperation add(Kind kind, String handle, boolean overriding, long leaseMillis, long invoked,
            long completed, Outcome outcome, long token) {
        LockOperation operation = new LockOperation(history.size() + 1, "TEST", kind, "k", handle, false, overriding,
                leaseMillis, invoked * MS, completed * MS, outcome, token);
        history.add(operation);
        return operation;
    }

    private static LockOperation withOutcome(LockOperation operation, Outcome outcome) {
        return new LockOperation(operation.id(), operation.name(), operation.kind(), operation.key(),
                operation.handle(), operation.reentrant(), operation.overriding(), operation.leaseMillis(),
                operation.invoked(), operation.completed(), outcome, operation.token());
    }

    private HistoryChecker.Verdict check() {
        return HistoryChecker.check(history, LATE);
    }

    private static List<String> kinds(HistoryChecker.Verdict verdict) {
        return verdict.violations().stream().map(HistoryChecker.Violation::kind).distinct().toList();
    }

    private static List<Long> ids(HistoryChecker.Violation violation) {
        return violation.operations().stream().map(LockOperation::id).toList();
    }

    @Test
    void holdsOneAfterTheOtherWithRisingTokensFit() {
        acquire("h1", 0, 2, Outcome.OK, 10);
        release("h1", 10, 20, 21, Outcome.OK);
        acquire("h2", 5, 22, Outcome.OK, 11);
        release("h2", 11, 30, 31, Outcome.OK);
        acquire("h3", 6, 1_006, Outcome.FAIL, -1);
        HistoryChecker.Verdict verdict = check();
        assertThat(verdict.violations()).isEmpty();
        assertThat(verdict.holds()).isEqualTo(2);
        assertThat(verdict.keys()).isEqualTo(1);
        assertThat(verdict.counts()).containsEntry("ACQUIRE OK", 2).containsEntry("ACQUIRE FAIL", 1)
                .containsEntry("RELEASE OK", 2);
        assertThat(verdict.summary()).contains("5 operations", "1 keys", "2 holds", "0 violations");
    }

    @Test
    void twoHoldsAtOnceInsideTheirLeasesAreAnOverlapNamingTheirOperations() {
        LockOperation first = acquire("h1", 0, 2, Outcome.OK, 10);
        LockOperation firstRelease = release("h1", 10, 50, 51, Outcome.UNKNOWN);
        LockOperation second = acquire("h2", 10, 12, Outcome.OK, 11);
        LockOperation secondRelease = release("h2", 11, 30, 31, Outcome.OK);
        HistoryChecker.Verdict verdict = check();
        assertThat(kinds(verdict)).containsExactly("OVERLAP");
        assertThat(verdict.overlaps()).isEqualTo(1);
        HistoryChecker.Violation overlap = verdict.violations().get(0);
        assertThat(ids(overlap)).containsExactlyInAnyOrder(first.id(), firstRelease.id(), second.id(),
                secondRelease.id());
        assertThat(overlap.describe(0)).contains("token 10", "token 11", "0.0..2.0 ms", "10.0..12.0 ms",
                "30.0..31.0 ms", "50.0..51.0 ms");
    }

    @Test
    void aHoldGrantedBeforeAnotherWasAskedForMustHaveTheLowerToken() {
        LockOperation first = acquire("h1", 0, 2, Outcome.OK, 12);
        release("h1", 12, 5, 6, Outcome.OK);
        LockOperation second = acquire("h2", 10, 12, Outcome.OK, 11);
        release("h2", 11, 20, 21, Outcome.OK);
        HistoryChecker.Verdict verdict = check();
        assertThat(kinds(verdict)).containsExactly("TOKEN_ORDER");
        assertThat(ids(verdict.violations().get(0))).contains(first.id(), second.id());
    }

    @Test
    void equalTokensOfTwoHandlesAreOutOfOrderToo() {
        acquire("h1", 0, 2, Outcome.OK, 11);
        release("h1", 11, 5, 6, Outcome.OK);
        acquire("h2", 10, 12, Outcome.OK, 11);
        assertThat(kinds(check())).containsExactly("TOKEN_ORDER");
    }

    @Test
    void anAcquisitionWhoseOutcomeIsUnknownMayHaveTakenItsTokenOrNot() {
        acquire("h1", 0, 2, Outcome.OK, 10);
        release("h1", 10, 20, 21, Outcome.OK);
        acquire("h2", 5, 1_005, Outcome.UNKNOWN, -1);
        acquire("h3", 1_010, 1_012, Outcome.OK, 12);
        release("h3", 12, 1_020, 1_021, Outcome.OK);
        assertThat(check().violations()).as("the unknown one took token 11").isEmpty();
        history.remove(history.size() - 1);
        history.remove(history.size() - 1);
        acquire("h3", 1_010, 1_012, Outcome.OK, 11);
        release("h3", 11, 1_020, 1_021, Outcome.OK);
        assertThat(check().violations()).as("the unknown one never took effect").isEmpty();
        assertThat(check().counts()).containsEntry("ACQUIRE UNKNOWN", 1);
    }

    @Test
    void anOverlapOnceTheFirstLeaseCouldHaveRunOutIsExcusedUnlessItsReleaseTookEffect() {
        acquire("h1", false, 1_000, 0, 2, Outcome.OK, 10);
        LockOperation lateRelease = release("h1", 10, 1_500, 1_501, Outcome.FAIL);
        acquire("h2", 1_001, 1_003, Outcome.OK, 11);
        release("h2", 11, 1_100, 1_101, Outcome.OK);
        HistoryChecker.Verdict expired = check();
        assertThat(expired.violations()).isEmpty();
        assertThat(expired.excusedOverlaps()).isEqualTo(1);

        history.set(1, withOutcome(lateRelease, Outcome.UNKNOWN));
        assertThat(check().violations()).as("an unknown release may have found the lock free").isEmpty();

        history.set(1, withOutcome(lateRelease, Outcome.OK));
        HistoryChecker.Verdict released = check();
        assertThat(kinds(released)).as("a release that took effect proves the first hold lived on")
                .contains("OVERLAP");
    }

    @Test
    void anOverlapBeforeTheEarliestLeaseExpiryIsNotExcused() {
        acquire("h1", false, 1_000, 0, 2, Outcome.OK, 10);
        release("h1", 10, 1_500, 1_501, Outcome.FAIL);
        acquire("h2", 900, 990, Outcome.OK, 11);
        release("h2", 11, 1_100, 1_101, Outcome.OK);
        assertThat(kinds(check())).containsExactly("OVERLAP");
    }

    @Test
    void anOverridingOperationThatMayHaveTakenEffectExcusesTheHoldItTouched() {
        acquire("h1", 0, 2, Outcome.OK, 10);
        release("h1", 10, 50, 51, Outcome.FAIL);
        acquire("h2", 30, 32, Outcome.OK, 12);
        release("h2", 12, 40, 41, Outcome.OK);
        assertThat(kinds(check())).containsExactly("OVERLAP");
        acquire("o9", true, 1_000, 20, 25, Outcome.UNKNOWN, -1);
        assertThat(check().violations()).isEmpty();
    }

    @Test
    void anOverridingTakeOverGrantedInTheMeantimeMustHaveATokenBetween() {
        acquire("h1", 0, 2, Outcome.OK, 10);
        release("h1", 10, 5, 6, Outcome.OK);
        acquire("o9", true, 1_000, 10, 12, Outcome.OK, 9);
        assertThat(kinds(check())).containsExactly("TOKEN_ORDER");
    }

    @Test
    void entriesOfOneReentrantHoldShareItsToken() {
        history.add(new LockOperation(1, "TEST", Kind.ACQUIRE, "k", "h1", true, false, 2_000, 0, 2 * MS, Outcome.OK,
                10));
        history.add(new LockOperation(2, "TEST", Kind.ACQUIRE, "k", "h1", true, false, 2_000, 5 * MS, 6 * MS,
                Outcome.OK, 10));
        history.add(new LockOperation(3, "TEST", Kind.RELEASE, "k", "h1", true, false, 0, 8 * MS, 9 * MS, Outcome.OK,
                10));
        history.add(new LockOperation(4, "TEST", Kind.RELEASE, "k", "h1", true, false, 0, 10 * MS, 11 * MS,
                Outcome.OK, 10));
        acquire("h2", 12, 14, Outcome.OK, 11);
        HistoryChecker.Verdict verdict = check();
        assertThat(verdict.violations()).isEmpty();
        assertThat(verdict.holds()).isEqualTo(2);
    }

    @Test
    void aWrittenLineReadsBackAsTheSameOperation() {
        LockOperation operation = new LockOperation(7, "contend", Kind.RELEASE, "key-1", "123@456", true, false, 0,
                1_796_000_000_000_123L, 1_796_000_000_000_456L, Outcome.UNKNOWN, 42);
        assertThat(LockOperation.parse(7, operation.line())).isEqualTo(operation);
    }
}
