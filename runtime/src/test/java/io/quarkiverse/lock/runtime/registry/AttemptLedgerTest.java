package io.quarkiverse.lock.runtime.registry;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.quarkiverse.lock.runtime.registry.AttemptLedger.GiveUp;
import io.quarkiverse.lock.runtime.registry.AttemptLedger.HandOver;
import io.quarkiverse.lock.runtime.waiting.LocalLockStates;
import io.quarkiverse.lock.runtime.waiting.Waiter;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;

/**
 * The bookkeeping of one acquisition: one attempt in flight at a time, one outcome, a give-up that withdraws only
 * after the store answered, and a hand-over taken as the grant only when it came after every refusal.
 */
class AttemptLedgerTest {

    private static final long LEASE_MILLIS = 10_000;

    private final AttemptLedger ledger = new AttemptLedger(LEASE_MILLIS);

    @Test
    void onlyOneAttemptIsInFlightAtATime() {
        assertThat(ledger.startAttempt()).isTrue();
        assertThat(ledger.startAttempt()).as("a second attempt while the first is in flight").isFalse();
        ledger.answered(AcquireResult.heldByAnother(100), System.nanoTime());
        assertThat(ledger.startAttempt()).as("an attempt once the first was answered").isTrue();
    }

    @Test
    void exactlyOneOutcomeWins() {
        assertThat(ledger.grant()).isTrue();
        assertThat(ledger.isRunning()).isFalse();
        assertThat(ledger.grant()).isFalse();
        assertThat(ledger.giveUpAfterAnswer()).isFalse();
        assertThat(ledger.giveUp()).isEqualTo(GiveUp.ENDED_ALREADY);
        assertThat(ledger.startAttempt()).as("an attempt after the end").isFalse();
    }

    @Test
    void aGiveUpBeforeAnyAttemptHasNothingToWithdraw() {
        assertThat(ledger.giveUp()).isEqualTo(GiveUp.NOTHING_SENT);
        assertThat(ledger.giveUp()).isEqualTo(GiveUp.ENDED_ALREADY);
    }

    @Test
    void aGiveUpAfterAnAnsweredAttemptWithdrawsNow() {
        ledger.startAttempt();
        ledger.answered(AcquireResult.heldByAnother(100), System.nanoTime());
        assertThat(ledger.giveUp()).isEqualTo(GiveUp.WITHDRAW_NOW);
    }

    @Test
    void aGiveUpWithAnAttemptInFlightWithdrawsWhenItIsAnswered() {
        ledger.startAttempt();
        assertThat(ledger.giveUp()).isEqualTo(GiveUp.WITHDRAW_ON_ANSWER);
        assertThat(ledger.answered(AcquireResult.acquired(7), System.nanoTime()))
                .as("the late answer, a grant nobody will hold").isEqualTo(AttemptLedger.WITHDRAWN);
    }

    @Test
    void aFailedAttemptWithdrawsTooWhenTheAcquisitionGaveUpMeanwhile() {
        ledger.startAttempt();
        ledger.giveUp();
        assertThat(ledger.answered(null, 0)).isEqualTo(AttemptLedger.WITHDRAWN);
    }

    @Test
    void aHandOverBeforeAnyRefusalIsCheckedWithTheStore() {
        assertThat(ledger.handOver(5)).isEqualTo(HandOver.ASK_STORE);
        assertThat(ledger.isRunning()).isTrue();
    }

    @Test
    void aHandOverAfterEveryRefusalIsTheGrant() {
        long sent = System.nanoTime();
        ledger.startAttempt();
        ledger.answered(AcquireResult.heldByAnother(100, 4), sent);
        assertThat(ledger.handOver(5)).isEqualTo(HandOver.GRANTED);
        assertThat(ledger.isRunning()).isFalse();
        assertThat(ledger.leaseSinceNanos(0)).as("the lease runs since the refused attempt was sent").isEqualTo(sent);
    }

    @Test
    void aHandOverNoNewerThanARefusalIsCheckedWithTheStore() {
        ledger.startAttempt();
        ledger.answered(AcquireResult.heldByAnother(100, 9), System.nanoTime());
        assertThat(ledger.handOver(9)).isEqualTo(HandOver.ASK_STORE);
        assertThat(ledger.isRunning()).isTrue();
    }

    @Test
    void aHandOverOfAStoreThatDoesNotTellIssuedTokensIsCheckedWithTheStore() {
        ledger.startAttempt();
        ledger.answered(AcquireResult.heldByAnother(100), System.nanoTime());
        assertThat(ledger.handOver(Long.MAX_VALUE - 1)).isEqualTo(HandOver.ASK_STORE);
    }

    @Test
    void aHandOverWhenHalfTheLeaseIsGoneIsCheckedWithTheStore() {
        long longAgo = System.nanoTime() - LEASE_MILLIS * 600_000;
        ledger.startAttempt();
        ledger.answered(AcquireResult.heldByAnother(100, 4), longAgo);
        assertThat(ledger.handOver(5)).isEqualTo(HandOver.ASK_STORE);
    }

    @Test
    void aHandOverIsTheGrantWhateverTheWaitForALockWithoutExpiry() {
        AttemptLedger forever = new AttemptLedger(LockStore.NO_EXPIRY);
        forever.startAttempt();
        forever.answered(AcquireResult.heldByAnother(-1, 4), System.nanoTime() - 3_600_000_000_000L);
        assertThat(forever.handOver(5)).isEqualTo(HandOver.GRANTED);
    }

    @Test
    void aHandOverHeardWhileAnAttemptIsInFlightIsJudgedOnceItIsAnswered() {
        ledger.startAttempt();
        assertThat(ledger.handOver(5)).isEqualTo(HandOver.HEARD_MEANWHILE);
        assertThat(ledger.handOver(3)).isEqualTo(HandOver.HEARD_MEANWHILE);
        assertThat(ledger.isRunning()).isTrue();
        assertThat(ledger.answered(AcquireResult.heldByAnother(100, 4), System.nanoTime()))
                .as("the highest token heard meanwhile").isEqualTo(5);
        assertThat(ledger.handOver(5)).isEqualTo(HandOver.GRANTED);
    }

    @Test
    void theHandOversHeardMeanwhileAreForgottenOnceAnswered() {
        ledger.startAttempt();
        ledger.handOver(5);
        ledger.answered(AcquireResult.heldByAnother(100, 9), System.nanoTime());
        ledger.startAttempt();
        assertThat(ledger.answered(AcquireResult.heldByAnother(100, 9), System.nanoTime())).isZero();
    }

    @Test
    void aHandOverAfterTheEndIsIgnored() {
        ledger.startAttempt();
        ledger.answered(AcquireResult.heldByAnother(100, 4), System.nanoTime());
        ledger.giveUp();
        assertThat(ledger.handOver(5)).isEqualTo(HandOver.ENDED);
    }

    @Test
    void aGrantRevealedByAnAttemptCountsItsLeaseFromTheLastRefusal() {
        assertThat(ledger.leaseSinceNanos(42)).as("no refusal yet").isEqualTo(42);
        long refusedSent = System.nanoTime();
        ledger.startAttempt();
        ledger.answered(AcquireResult.heldByAnother(100, 4), refusedSent);
        ledger.startAttempt();
        ledger.answered(AcquireResult.acquired(5), refusedSent + 1_000);
        assertThat(ledger.leaseSinceNanos(refusedSent + 1_000)).isEqualTo(refusedSent);
    }

    @Test
    void theLineIsJoinedOnlyWhileTheAcquisitionRuns() {
        LocalLockStates states = new LocalLockStates();
        Waiter joined = ledger.join(() -> states.join("k", "a", token -> {
        }));
        assertThat(joined).isNotNull();
        assertThat(ledger.waiter()).isSameAs(joined);

        AttemptLedger cancelled = new AttemptLedger(LEASE_MILLIS);
        cancelled.giveUp();
        assertThat(cancelled.join(() -> states.join("k", "b", token -> {
        }))).isNull();
        assertThat(states.get("k").waiting()).as("only the running acquisition waits").isEqualTo(1);
    }
}
