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

    /** What a hand-over message means for the acquisition it names. */
    enum HandOver {
        /** It is the grant: the acquisition ended granted, its lease running since the last refused attempt. */
        GRANTED,
        /** It may be stale: ask the store. */
        ASK_STORE,
        /** An attempt is in flight: the message is judged once it is answered ({@link #answered}). */
        HEARD_MEANWHILE,
        /** The acquisition ended. */
        ENDED
    }

    /** What giving up leaves to withdraw in the store. */
    enum GiveUp {
        /** The acquisition had ended already: nothing to do. */
        ENDED_ALREADY,
        /** No attempt was sent: nothing to withdraw. */
        NOTHING_SENT,
        /** The last attempt was answered: withdraw now. */
        WITHDRAW_NOW,
        /** An attempt is in flight: its answer withdraws ({@link #answered} returns {@link #WITHDRAWN}). */
        WITHDRAW_ON_ANSWER
    }

    /** What {@link #answered} returns when the acquisition gave up meanwhile and the answer must be withdrawn. */
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

    /**
     * @param leaseMillis the lease the acquisition asks for, or {@link LockStore#NO_EXPIRY}
     */
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

    /**
     * @return the acquisition's place in the local line, or {@code null} if it does not wait there
     */
    synchronized Waiter waiter() {
        return waiter;
    }

    /**
     * @return {@code true} if an attempt may be sent now, and it is counted as in flight; {@code false} if the
     *         acquisition ended or an attempt is in flight
     */
    synchronized boolean startAttempt() {
        if (state != State.RUNNING || awaitingAnswer) {
            return false;
        }
        attempted = true;
        awaitingAnswer = true;
        return true;
    }

    /**
     * The attempt in flight was answered (or failed, with {@code result} {@code null}). A refusal is recorded in the
     * same step, so a hand-over heard from then on is judged against it.
     *
     * @param sentNanos when the attempt was sent
     * @return the highest token of the hand-overs heard while the attempt was in flight (0 if none), or
     *         {@link #WITHDRAWN} if the acquisition gave up meanwhile and the answer must now be withdrawn
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
     * @param sentNanos when the attempt that revealed a grant was sent
     * @return since when the lease of that grant surely runs: since the last refused attempt was sent, if one was (the
     *         grant may be a hand-over made after that refusal), else since {@code sentNanos}
     */
    synchronized long leaseSinceNanos(long sentNanos) {
        return refused ? refusedSentNanos : sentNanos;
    }

    /**
     * Judges a hand-over message naming this acquisition. It is the grant when no attempt is in flight and its token
     * is above what every refusal saw issued, so it came after all of them; and when at least half the lease of a
     * grant made after the last refused attempt was sent is left.
     *
     * @param token the message's fencing token
     * @return what the message means; {@link HandOver#GRANTED} ends the acquisition granted
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

    /**
     * @return {@code true} if the acquisition ended granted now; {@code false} if it had ended
     */
    synchronized boolean grant() {
        return end(State.GRANTED);
    }

    /**
     * Ends the acquisition not granted after its last attempt's answer (the wait ran out).
     *
     * @return {@code true} if it ended now; {@code false} if it had ended
     */
    synchronized boolean giveUpAfterAnswer() {
        return end(State.GAVE_UP);
    }

    /**
     * Ends the acquisition not granted at any moment (a failure, a cancellation).
     *
     * @return what is left to withdraw in the store
     */
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
