package io.quarkiverse.lock;

/**
 * How a handle obtained from {@link LockRegistry#obtain(String, LockType)} behaves when it acquires a lock it already
 * holds, and whose lock it may release.
 */
public enum LockType {

    /**
     * The default: the holder cannot acquire the lock again (an attempt answers {@code false}, or waits and times
     * out), and only the holder releases it.
     */
    SINGLE_ENTRANT,

    /**
     * The handle that holds the lock may acquire it again, at once and without waiting: each acquisition enters the
     * hold once more and needs its own release; the lock is freed at the last one. A re-entry checks with the store
     * that the lock is still held and restarts the lease it was first acquired with (the lease asked for by the
     * re-entry is not used); if the lock was lost, the re-entry acquires it afresh. All entries share the first
     * acquisition's fencing token.
     */
    REENTRANT,

    /**
     * For administration: acquiring takes the lock whoever holds it (with a new fencing token, so the previous
     * holder's writes can be fenced off, and its own release then fails with {@link LockExpiredException}), and
     * {@code release()} frees the lock whoever holds it. Never use it for ordinary critical sections. Of two
     * acquisitions of one overriding handle at once, the one whose grant the store made first, answered after the
     * other's, answers "not acquired": the later take-over ended it.
     */
    OVERRIDING
}
