package io.quarkiverse.lock.runtime.registry;

import java.util.function.Supplier;

import io.quarkiverse.lock.runtime.waiting.Waiter;
import io.quarkiverse.lock.spi.AcquireResult;
import io.quarkiverse.lock.spi.LockStore;

/**
 * The bookkeeping of one {@link AcquireOperation}, under one monitor: how it ended, its place in the local line, the
 * attempt in flight, what its refusals said, and the hand-overs heard meanwhile. One monitor, because each decision
 * reads several of these at once: an attempt starts only while the acquisition runs and none is in flight, a give-up
 * withdraws now or once the attempt in flight is answered, and a hand-over is the grant only if it came after every
 * refusal and no attempt is in flight.
 */
final class AttemptLedger {

    /** What a hand-over message means; one heard meanwhile is judged once the attempt in flight is answered. */
    enum HandOver {
        GRANTED,
        ASK_STORE,
        HEARD_MEANWHILE,
        ENDED
    }

    /** What giving up leaves to take back; on answer, {@link #answered} returns {@link #WITHDRAWN}. */
    enum GiveUp {
        ENDED_ALREADY,
        NOTHING_SENT,
        WITHDRAW_NOW,
        WITHDRAW_ON_ANSWER
    }

    static final long WITHDRAWN = -1;

    private enum State {
        RUNNING,
        GRANTED,
        GAVE_UP
    }

    private final long leaseMillis;
    private State state = State.RUNNING;
    private Waiter waiter;
    private boolean attempted;
    private boolean awaitingAnswer;
    private boolean withdrawOnAnswer;
    private boolean refused;
    private long refusedSentNanos;
    /** The highest {@link AcquireResult#issuedTokensUpTo()} of the refusals: a hand-over above it came after them. */
    private long refusalsSawTokensUpTo;
    /** The highest token of the hand-overs heard while an attempt was in flight, 0 if none. */
    private long handOverHeardToken;

    AttemptLedger(long leaseMillis) {
        this.leaseMillis = leaseMillis;
    }

    synchronized boolean isRunning() {
        return state == State.RUNNING;
    }

    /**
     * Joins the local line while the acquisition runs, so a give-up either comes first or finds the place to leave.
     *
     * @return the place joined, or {@code null} if the acquisition ended
     */
    synchronized Waiter join(Supplier<Waiter> line) {
        if (state != State.RUNNING) {
            return null;
        }
        waiter = line.get();
        return waiter;
    }

    /** {@code null} if the acquisition does not wait in the local line. */
    synchronized Waiter waiter() {
        return waiter;
    }

    /** Whether an attempt may be sent now; it counts as in flight from then on. */
    synchronized boolean startAttempt() {
        if (state != State.RUNNING || awaitingAnswer) {
            return false;
        }
        attempted = true;
        awaitingAnswer = true;
        return true;
    }

    /**
     * The attempt in flight was answered ({@code result} {@code null} if it failed). A refusal is recorded in the same
     * step, so a hand-over heard from then on is judged against it.
     *
     * @return the highest token of the hand-overs heard while the attempt was in flight (0 if none), or
     *         {@link #WITHDRAWN} if the acquisition gave up meanwhile and the answer must now be taken back
     */
    synchronized long answered(AcquireResult result, long sentNanos) {
        long heard = handOverHeardToken;
        boolean withdraw = withdrawOnAnswer;
        awaitingAnswer = false;
        handOverHeardToken = 0;
        withdrawOnAnswer = false;
        if (result != null && !result.acquired()) {
            refused = true;
            refusedSentNanos = sentNanos;
            refusalsSawTokensUpTo = Math.max(refusalsSawTokensUpTo, result.issuedTokensUpTo());
        }
        return withdraw ? WITHDRAWN : heard;
    }

    /**
     * @return since when the lease of a grant revealed by an attempt sent at {@code sentNanos} surely runs: since the
     *         last refused attempt was sent, if one was, as the grant may be a hand-over made after that refusal
     */
    synchronized long leaseSinceNanos(long sentNanos) {
        return refused ? refusedSentNanos : sentNanos;
    }

    /**
     * A hand-over message is the grant (and ends the acquisition granted) when no attempt is in flight, its token is
     * above what every refusal saw issued, so it came after all of them, and at least half the lease is left.
     */
    synchronized HandOver handOver(long token) {
        if (state != State.RUNNING) {
            return HandOver.ENDED;
        }
        if (awaitingAnswer) {
            handOverHeardToken = Math.max(handOverHeardToken, token);
            return HandOver.HEARD_MEANWHILE;
        }
        if (refused && token > refusalsSawTokensUpTo && leaseLeft(refusedSentNanos)) {
            state = State.GRANTED;
            return HandOver.GRANTED;
        }
        return HandOver.ASK_STORE;
    }

    private boolean leaseLeft(long sinceNanos) {
        return leaseMillis == LockStore.NO_EXPIRY || System.nanoTime() - sinceNanos < leaseMillis * 500_000;
    }

    synchronized boolean grant() {
        return end(State.GRANTED);
    }

    /** Gives up when the wait ran out at an answer, so nothing is in flight to wait for. */
    synchronized boolean giveUpAfterAnswer() {
        return end(State.GAVE_UP);
    }

    /** Gives up at any moment (a failure, a cancellation). */
    synchronized GiveUp giveUp() {
        if (!end(State.GAVE_UP)) {
            return GiveUp.ENDED_ALREADY;
        }
        if (awaitingAnswer) {
            withdrawOnAnswer = true;
            return GiveUp.WITHDRAW_ON_ANSWER;
        }
        return attempted ? GiveUp.WITHDRAW_NOW : GiveUp.NOTHING_SENT;
    }

    private boolean end(State outcome) {
        if (state != State.RUNNING) {
            return false;
        }
        state = outcome;
        return true;
    }
}
