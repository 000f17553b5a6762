package io.quarkiverse.lock.testing;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.quarkiverse.lock.LockRegistry;
import io.quarkiverse.lock.LockType;
import io.quarkiverse.lock.ReactiveDistributedLock;
import io.quarkiverse.lock.runtime.registry.LockArguments;

/**
 * A {@link LockRegistry} for users' own tests, with no store: every acquisition answers as the stub was told (always
 * free, always held by someone else, or a given sequence of answers), and the stub counts the calls, so a test can
 * check that its code took and released the lock, or gave up when it was held.
 *
 * <pre>
 * LockRegistryStub locks = LockRegistryStub.alwaysHeld();
 * new NightlyReport(locks).run();
 * assertTrue(locks.wasAcquireRejected());
 * assertFalse(locks.wasReleaseInvoked());
 * </pre>
 *
 * Handles behave like real ones (single-entrant unless obtained as reentrant, release answers {@code true} only for
 * the holder, the {@code acquireAndExecute} family runs the action only when the answer is "acquired", fencing tokens
 * increase, {@code extend} answers {@code true} only while the handle holds the lock, since the stub's leases never run
 * out), but nothing is shared between handles: the answers alone decide. Arguments are checked as the real
 * registry checks them, so a test fails on what production refuses (a blank key or one longer than
 * {@link #MAX_KEY_LENGTH} characters, a negative wait, a lease that is not positive, a {@code null} action), except
 * the checks that depend on the configuration (a lease shorter than a handle's {@code withHoldAtLeast}). The blocking
 * view is the real one (in a Quarkus application it refuses to block a Vert.x event loop). Safe to use from several
 * threads.
 */
public final class LockRegistryStub implements LockRegistry {

    private final boolean[] answers;
    private final AtomicInteger nextAnswer = new AtomicInteger();
    private final AtomicInteger acquireCalls = new AtomicInteger();
    private final AtomicInteger acquired = new AtomicInteger();
    private final AtomicInteger rejected = new AtomicInteger();
    private final AtomicInteger releaseCalls = new AtomicInteger();
    private final AtomicInteger released = new AtomicInteger();
    private final AtomicLong tokens = new AtomicLong();

    private LockRegistryStub(boolean... answers) {
        this.answers = answers;
    }

    /**
     * @return a registry whose locks are always free: every acquisition succeeds
     */
    public static LockRegistryStub alwaysFree() {
        return new LockRegistryStub(true);
    }

    /**
     * @return a registry whose locks are always held by someone else: every acquisition fails (after no wait)
     */
    public static LockRegistryStub alwaysHeld() {
        return new LockRegistryStub(false);
    }

    /**
     * @param answers the answers of the acquisitions, in order; the last one repeats once they are used up
     * @return a registry answering acquisitions in that order, whatever the key
     * @throws IllegalArgumentException if no answer is given
     */
    public static LockRegistryStub answering(boolean... answers) {
        if (answers == null || answers.length == 0) {
            throw new IllegalArgumentException("answers must hold at least one answer");
        }
        return new LockRegistryStub(Arrays.copyOf(answers, answers.length));
    }

    /**
     * {@inheritDoc}
     * <p>
     * A {@link LockType#REENTRANT} handle that holds its lock acquires it again without using an answer (counted as
     * an acquisition) and needs as many releases; an {@link LockType#OVERRIDING} handle answers as told, like a
     * single-entrant one: nothing is shared between handles, so there is nobody to override.
     *
     * @throws IllegalArgumentException if the key is {@code null}, blank or longer than {@link #MAX_KEY_LENGTH}
     *         characters, or the type is {@code null}, as the real registry does
     */
    @Override
    public ReactiveDistributedLock obtain(String key, LockType type) {
        return new StubLock(this, LockArguments.requireKey(key), LockArguments.requireType(type) == LockType.REENTRANT);
    }

    /**
     * @return how many acquisitions were attempted (answered either way)
     */
    public int acquireCalls() {
        return acquireCalls.get();
    }

    /**
     * @return how many acquisitions succeeded
     */
    public int acquired() {
        return acquired.get();
    }

    /**
     * @return how many acquisitions were refused
     */
    public int rejected() {
        return rejected.get();
    }

    /**
     * @return how many releases were called, by holders or not
     */
    public int releaseCalls() {
        return releaseCalls.get();
    }

    /**
     * @return how many releases freed a lock
     */
    public int released() {
        return released.get();
    }

    /**
     * @return {@code true} if some lock was acquired and every acquired lock was released
     */
    public boolean wasAcquiredAndReleased() {
        return acquired.get() > 0 && released.get() == acquired.get();
    }

    /**
     * @return {@code true} if some acquisition was refused
     */
    public boolean wasAcquireRejected() {
        return rejected.get() > 0;
    }

    /**
     * @return {@code true} if release was called at all
     */
    public boolean wasReleaseInvoked() {
        return releaseCalls.get() > 0;
    }

    /** The answer to the next acquisition, counted. */
    boolean nextAnswer() {
        acquireCalls.incrementAndGet();
        int index = Math.min(nextAnswer.getAndIncrement(), answers.length - 1);
        boolean answer = answers[index];
        (answer ? acquired : rejected).incrementAndGet();
        return answer;
    }

    /** A reentrant handle entered its hold again: an acquisition that needs no answer. */
    void onReentry() {
        acquireCalls.incrementAndGet();
        acquired.incrementAndGet();
    }

    long nextToken() {
        return tokens.incrementAndGet();
    }

    void onRelease(boolean freed) {
        releaseCalls.incrementAndGet();
        if (freed) {
            released.incrementAndGet();
        }
    }
}
